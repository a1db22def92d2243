"""Train NLI: the decomposable attention model trained in the browser, in a worker process."""

from attnviz.lessons import Lesson

LESSON = Lesson(
    name="train_nli",
    script="pages/9_Train_NLI.py",
    icon=":material/model_training:",
    nav="train_nli.nav",
    title="train_nli.title",
    intro="train_nli.intro",
    tour="train_nli.tour",
)
