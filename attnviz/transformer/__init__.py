"""The transformer wing: real models read from disk.

- `conversion`: the shipped SmolLM2-135M-Instruct, converted once from its wheel's GGUF file to
  a safetensors folder in attnviz's cache (`attnviz.models.resolve("smollm2")` calls it).
"""
