"""NLI alignment: decomposable attention (attend, compare, aggregate) over MiniLM embeddings."""

from attnviz.lessons import Lesson

LESSON = Lesson(
    name="nli",
    script="pages/7_NLI_alignment.py",
    icon=":material/compare_arrows:",
    nav="nli.nav",
    title="nli.title",
    intro="nli.intro",
    tour="nli.tour",
)
