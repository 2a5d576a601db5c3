//! The serde model of `exercises/*.toml`.
//!
//! An exercise file is a list of `[[question]]` tables; `type` picks the
//! question type and with it the fields allowed. Every table denies unknown
//! fields so a typo fails the build at its `line:column` instead of being
//! ignored. Answers are never typed here: they come from the fixtures'
//! annotations and the checker's analysis (see [`super::resolve`]), except
//! for conceptual `choice` questions, which have no dump to read them from.
//!
//! ```toml
//! [[question]]
//! id = "gelu-which-call"              # unique in the book; letters, digits, `-`
//! type = "classify"
//! prompt = "Which call printed this?"
//! snippet = "elementwise_chain/compiled.cpu.hlo.txt#entry"   # family/file#excerpt
//! choices = ["stablehlo", "hlo-unoptimized", "hlo-optimized"] # optional
//! explanation = "Shown once answered."                        # optional
//! ```
//!
//! A snippet is `family/file` (the whole dump), `family/file#excerpt` (a
//! named excerpt of the fixture's annotations) or `family/file#12-30` (lines
//! 12 to 30, both included).

use serde::Deserialize;
use toml::Spanned;

/// A whole exercise file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExerciseFile {
    /// The questions, `[[question]]` in TOML, in the order they are placed.
    #[serde(default)]
    pub question: Vec<Spanned<Question>>,
}

/// One question; `type = "..."` picks the variant.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Question {
    /// Which call produced this snippet?
    Classify(Classify),
    /// Which lines prove it?
    Evidence(Evidence),
    /// How many of something does the dump hold?
    Count(Count),
    /// Which compiled dump belongs to this lowered one?
    Pair(Pair),
    /// A conceptual multiple choice.
    Choice(Choice),
    /// Which backend compiled this?
    Backend(BackendQuestion),
    /// Where does the time go? A figure of the cost ledger.
    Cost(CostQuestion),
    /// What changed between two dumps? A fact of their diff.
    Diff(DiffQuestion),
    /// What does a dump folder say? Its pass story or its memory.
    Folder(FolderQuestion),
    /// Why these kernels? A boundary or a copy, explained.
    Explain(ExplainQuestion),
    /// Many devices: a fact of one collective.
    Collective(CollectiveQuestion),
    /// What was pasted: a finding of `why` on the excerpt shown.
    Finding(FindingQuestion),
}

impl Question {
    /// Every `type` spelling, in declaration order (the order serde's
    /// "expected one of" lists them). What shows a question by its type (the
    /// page's label, the answer key) has one row per entry; tests check it.
    pub const TYPE_NAMES: [&'static str; 12] = [
        "classify",
        "evidence",
        "count",
        "pair",
        "choice",
        "backend",
        "cost",
        "diff",
        "folder",
        "explain",
        "collective",
        "finding",
    ];

    /// The `type` spelling.
    pub fn type_name(&self) -> &'static str {
        match self {
            Question::Classify(_) => "classify",
            Question::Evidence(_) => "evidence",
            Question::Count(_) => "count",
            Question::Pair(_) => "pair",
            Question::Choice(_) => "choice",
            Question::Backend(_) => "backend",
            Question::Cost(_) => "cost",
            Question::Diff(_) => "diff",
            Question::Folder(_) => "folder",
            Question::Explain(_) => "explain",
            Question::Collective(_) => "collective",
            Question::Finding(_) => "finding",
        }
    }

    /// The fields every type has: id, prompt and explanation.
    pub fn common(&self) -> (&str, &str, Option<&str>) {
        macro_rules! common {
            ($q:expr) => {
                (
                    $q.id.as_str(),
                    $q.prompt.as_str(),
                    $q.explanation.as_deref(),
                )
            };
        }
        match self {
            Question::Classify(q) => common!(q),
            Question::Evidence(q) => common!(q),
            Question::Count(q) => common!(q),
            Question::Pair(q) => common!(q),
            Question::Choice(q) => common!(q),
            Question::Backend(q) => common!(q),
            Question::Cost(q) => common!(q),
            Question::Diff(q) => common!(q),
            Question::Folder(q) => common!(q),
            Question::Explain(q) => common!(q),
            Question::Collective(q) => common!(q),
            Question::Finding(q) => common!(q),
        }
    }
}

/// `type = "classify"`: which call printed the snippet.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Classify {
    /// Unique in the book: it names the question in the page and in progress.
    pub id: String,
    /// The question, plain text; `` `code` `` spans are rendered as code.
    pub prompt: String,
    /// Shown once the question is answered right or revealed.
    #[serde(default)]
    pub explanation: Option<String>,
    /// The dump excerpt shown.
    pub snippet: String,
    /// The kinds offered (`jaxpr`, `stablehlo`, `hlo-unoptimized`,
    /// `hlo-optimized`); all four when left out. Must include the right one.
    #[serde(default)]
    pub choices: Option<Vec<String>>,
}

/// `type = "evidence"`: select the lines that prove it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Evidence {
    /// Unique in the book: it names the question in the page and in progress.
    pub id: String,
    /// The question, plain text; `` `code` `` spans are rendered as code.
    pub prompt: String,
    /// Shown once the question is answered right or revealed.
    #[serde(default)]
    pub explanation: Option<String>,
    /// The dump excerpt shown; every line of it that proves the claim is
    /// a right answer.
    pub snippet: String,
    /// What the selected lines must prove (`compiled`, `not-compiled`,
    /// `tpu`, `fusion`, ...: the claim table in
    /// `checker/src/analysis/claims.rs`); by default, that the dump is what
    /// its annotated kind says.
    #[serde(default)]
    pub claim: Option<String>,
    /// How many proving lines make a right answer (default two, or one when
    /// the excerpt holds one; every one for an inventory claim such as
    /// `fusion`).
    #[serde(default)]
    pub need: Option<usize>,
}

/// `type = "count"`: a counted fact, computed by the checker.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Count {
    /// Unique in the book: it names the question in the page and in progress.
    pub id: String,
    /// The question, plain text; `` `code` `` spans are rendered as code.
    pub prompt: String,
    /// Shown once the question is answered right or revealed.
    #[serde(default)]
    pub explanation: Option<String>,
    /// The dump excerpt shown (the fact is computed on the whole dump).
    pub snippet: String,
    /// What is counted: one of `resolve::FACTS` (`entry_kernels`,
    /// `entry_fusions`, `iteration_kernels`, `fusions`, ...).
    pub fact: String,
}

/// `type = "cost"`: a figure of the cost ledger of a compiled dump
/// (`dumplab::cost`), asked of one kernel or of the whole dump.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CostQuestion {
    /// Unique in the book: it names the question in the page and in progress.
    pub id: String,
    /// The question, plain text; `` `code` `` spans are rendered as code.
    pub prompt: String,
    /// Shown once the question is answered right or revealed.
    #[serde(default)]
    pub explanation: Option<String>,
    /// The compiled dump excerpt shown (the ledger is of the whole dump).
    pub snippet: String,
    /// What is asked: one of `resolve::cost::ASKS` (`flops`, `bytes`,
    /// `hbm-bytes`, `bound`, `slowest`).
    pub ask: String,
    /// The kernel asked about (its instruction name, without `%`), for the
    /// asks about one kernel.
    #[serde(default)]
    pub kernel: Option<String>,
    /// The chip preset of the roofline (`v5e`, `h100`, ...); by default the
    /// one the ledger chooses for the dump.
    #[serde(default)]
    pub chip: Option<String>,
}

/// `type = "explain"`: why two kernels of a compiled dump are separate, or
/// what a copy does (`dumplab::explain`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExplainQuestion {
    /// Unique in the book: it names the question in the page and in progress.
    pub id: String,
    /// The question, plain text; `` `code` `` spans are rendered as code.
    pub prompt: String,
    /// Shown once the question is answered right or revealed.
    #[serde(default)]
    pub explanation: Option<String>,
    /// The compiled dump excerpt shown (the explanation is of the whole dump).
    pub snippet: String,
    /// What is asked: one of `resolve::explain::EXPLAIN_ASKS` (`reason`,
    /// `from`, `copy-bytes`).
    pub ask: String,
    /// The kernel asked about (its instruction name, without `%`).
    pub kernel: String,
    /// Which of its operands (from 0), for `reason` and `from`.
    #[serde(default)]
    pub operand: Option<usize>,
    /// Whether XLA's fusion log of the same compile (the family's
    /// `fusion-log.<target>.txt`) is read too: its reason comes first.
    #[serde(default)]
    pub log: bool,
}

/// `type = "collective"`: a fact of one collective of a compiled sharded
/// dump (`dumplab::collectives`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectiveQuestion {
    /// Unique in the book: it names the question in the page and in progress.
    pub id: String,
    /// The question, plain text; `` `code` `` spans are rendered as code.
    pub prompt: String,
    /// Shown once the question is answered right or revealed.
    #[serde(default)]
    pub explanation: Option<String>,
    /// The compiled dump excerpt shown (the reader reads the whole dump).
    pub snippet: String,
    /// What is asked: one of `resolve::collective::COLLECTIVE_ASKS`
    /// (`group-size`, `schedule`, `between`, `payload-bytes`, `link-bytes`,
    /// `origin`).
    pub ask: String,
    /// The collective asked about: its instruction name (a pair's start or
    /// done), without `%`.
    pub kernel: String,
}

/// `type = "finding"`: what `dumplab::why` finds in the excerpt shown,
/// read as the learner would paste it (the excerpt alone, not the whole
/// dump).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FindingQuestion {
    /// Unique in the book: it names the question in the page and in progress.
    pub id: String,
    /// The question, plain text; `` `code` `` spans are rendered as code.
    pub prompt: String,
    /// Shown once the question is answered right or revealed.
    #[serde(default)]
    pub explanation: Option<String>,
    /// The excerpt shown, and read: `family/file#part`.
    pub snippet: String,
    /// What is asked: one of `resolve::finding::FINDING_ASKS` (`top`,
    /// `evidence`, `bytes`).
    pub ask: String,
    /// The backend to read it for, where the excerpt cannot show it
    /// (`cpu`, `gpu`, `tpu`), as `why --backend` takes it.
    #[serde(default)]
    pub backend: Option<String>,
}

/// `type = "diff"`: a fact of the diff of two dumps (`dumplab::diff`): the
/// dump after a change is shown, the one before is named.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiffQuestion {
    /// Unique in the book: it names the question in the page and in progress.
    pub id: String,
    /// The question, plain text; `` `code` `` spans are rendered as code.
    pub prompt: String,
    /// Shown once the question is answered right or revealed.
    #[serde(default)]
    pub explanation: Option<String>,
    /// B, the dump after the change: the excerpt shown (the diff is of the
    /// whole dumps).
    pub snippet: String,
    /// A, the dump before the change (`family/file`), named in the
    /// question's context.
    pub other: String,
    /// What is asked: one of `resolve::diff::ASKS` (`added`, `introduced`,
    /// `bytes-delta`, `merged`, `split`, `same-program`).
    pub ask: String,
    /// The kernel asked about (its instruction name, without `%`), for
    /// `merged` (a kernel of B) and `split` (a kernel of A).
    #[serde(default)]
    pub kernel: Option<String>,
}

/// `type = "folder"`: a fact of a dump folder (`dumplab::folder`): its
/// pass story or its memory; a file of the folder is shown.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FolderQuestion {
    /// Unique in the book: it names the question in the page and in progress.
    pub id: String,
    /// The question, plain text; `` `code` `` spans are rendered as code.
    pub prompt: String,
    /// Shown once the question is answered right or revealed.
    #[serde(default)]
    pub explanation: Option<String>,
    /// The file of the folder shown, `family/folder.<target>/<file>#part`.
    pub snippet: String,
    /// What is asked: one of `resolve::folder::FOLDER_ASKS` (`first-file`,
    /// `changed-files`, `temp-bytes`, `peak-bytes`, `aliased`).
    pub ask: String,
    /// For `first-file`: the instruction name, opcode or fusion kind looked
    /// for (`copy.7`, `copy`, `kLoop`).
    #[serde(default)]
    pub of: Option<String>,
}

/// `type = "pair"`: pick the compiled dump of the same function.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pair {
    /// Unique in the book: it names the question in the page and in progress.
    pub id: String,
    /// The question, plain text; `` `code` `` spans are rendered as code.
    pub prompt: String,
    /// Shown once the question is answered right or revealed.
    #[serde(default)]
    pub explanation: Option<String>,
    /// The lowered snippet shown.
    pub snippet: String,
    /// Two to four snippets from different families; exactly one from the
    /// snippet's family.
    pub candidates: Vec<String>,
}

/// `type = "choice"`: conceptual multiple choice.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    /// Unique in the book: it names the question in the page and in progress.
    pub id: String,
    /// The question, plain text; `` `code` `` spans are rendered as code.
    pub prompt: String,
    /// Shown once the question is answered right or revealed.
    #[serde(default)]
    pub explanation: Option<String>,
    /// An optional dump excerpt shown above the options.
    #[serde(default)]
    pub snippet: Option<String>,
    /// Two to six options, exactly one with `correct = true`.
    pub option: Vec<ChoiceOption>,
}

/// One `[[question.option]]` of a `choice` question.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChoiceOption {
    /// What the learner picks.
    pub text: String,
    /// Whether it is the right one.
    #[serde(default)]
    pub correct: bool,
    /// Why it is right or wrong, shown when picked.
    pub why: String,
}

/// `type = "backend"`: CPU, GPU or TPU, from a compiled snippet.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BackendQuestion {
    /// Unique in the book: it names the question in the page and in progress.
    pub id: String,
    /// The question, plain text; `` `code` `` spans are rendered as code.
    pub prompt: String,
    /// Shown once the question is answered right or revealed.
    #[serde(default)]
    pub explanation: Option<String>,
    /// The compiled dump excerpt shown.
    pub snippet: String,
    /// The backends offered (`cpu`, `gpu`, `tpu`); all three when left out.
    #[serde(default)]
    pub choices: Option<Vec<String>>,
}
