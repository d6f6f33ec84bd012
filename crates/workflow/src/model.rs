//! The native workflow model: what a `.json` workflow file deserialises into.
//!
//! Everything here is data. Actions are a closed set of typed variants; nothing in a
//! workflow is ever evaluated. Field order in these structs is the order in which files are
//! written, so saved files diff cleanly.

mod action;
mod choices;
mod config;
mod target;

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use action::{Action, Direction, ExtractRead, MouseButton, Position, TabSelector};
pub use choices::Choices;
pub use config::{Breakers, Config, EscalationStage, ModelFixes, Viewport};
pub use target::{Target, TargetField};

/// The version written into every native file; bumped on incompatible format changes.
pub const FORMAT_VERSION: u32 = 1;

/// A finite-state machine of one task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Workflow {
    /// Format version; always 1 for now. Files without it are read as CliGent files.
    pub version: u32,
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Named inputs, referenced as `{{name}}` in URLs, text, selectors and check values.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub parameters: IndexMap<String, Parameter>,
    #[serde(default, skip_serializing_if = "Config::is_default")]
    pub config: Config,
    /// Present on a skill: a sub-workflow that others run with a `use_skill` action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill: Option<Skill>,
    /// States in priority order: when several match, the first one wins.
    pub states: Vec<State>,
}

/// What makes a workflow a skill (seed 003's `url_start`, `url_end` and expectations): a
/// skill runs from where its preconditions hold to a success terminal, after which its
/// postconditions must hold. Its parameters are its arguments, its variables its outputs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Skill {
    /// Checks that must hold on the page before the skill starts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pre: Vec<Check>,
    /// Checks that must hold once it has ended.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub post: Vec<Check>,
    /// Where it came from (an imported folder, the runs it was mined from), for people.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Parameter {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Used when the run does not supply a value. Without one the parameter is required.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    /// Secret values never reach logs, run records or screenshots' metadata.
    #[serde(default, skip_serializing_if = "is_false")]
    pub secret: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// What this state is, in words, for the model to make concrete (CliGent's regenerative
    /// mode), e.g. "sign in as {{username}}". A state with a prompt and no checks is
    /// synthesised on a run: the model writes its checks and actions from the live page,
    /// the run verifies them, and they are proposed as a fix; after that, no model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// "Where am I": all must hold for the state to match. An empty list never matches.
    #[serde(default)]
    pub checks: Vec<Check>,
    /// "What to do here", in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<Action>,
    /// A continuous state re-runs its actions on every pass instead of once per entry.
    #[serde(default, skip_serializing_if = "is_false")]
    pub continuous: bool,
    /// An interrupt (a consent banner, a modal, "session expired") may show up at any point.
    /// Interrupts are recognised before other states; handling one is a detour, after which
    /// the run resumes where it was.
    #[serde(default, skip_serializing_if = "is_false")]
    pub interrupt: bool,
    /// The states this state's actions are expected to lead to. Reaching one verifies them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub next: Vec<String>,
    /// Checks that also verify this state's actions when they all hold afterwards (an
    /// anchor or success indicator on the same page). With neither `next` nor `expect`,
    /// any change of state verifies them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expect: Vec<Check>,
    /// Present on terminal states: entering one ends the run after its actions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terminal: Option<Terminal>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Terminal {
    pub outcome: Outcome,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Success,
    Failure,
}

/// One predicate on the live page. `negate` inverts it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Check {
    /// The page URL.
    Url {
        #[serde(default, rename = "match", skip_serializing_if = "is_default")]
        mode: UrlMatch,
        value: String,
        #[serde(default, skip_serializing_if = "is_false")]
        negate: bool,
    },
    /// The document title.
    Title {
        #[serde(default, rename = "match", skip_serializing_if = "is_default")]
        mode: TitleMatch,
        value: String,
        #[serde(default, skip_serializing_if = "is_false")]
        negate: bool,
    },
    /// Visible text: some element's whitespace-normalised text equals (or contains) `value`.
    Text {
        #[serde(default, rename = "match", skip_serializing_if = "is_default")]
        mode: TextMatch,
        value: String,
        #[serde(default, skip_serializing_if = "is_false")]
        negate: bool,
    },
    /// An element matching the selector is present and visible.
    Element {
        #[serde(default, skip_serializing_if = "is_default")]
        by: SelectorKind,
        selector: String,
        #[serde(default, skip_serializing_if = "is_false")]
        negate: bool,
    },
    /// Desktop: the title of the window with the keyboard focus.
    WindowTitle {
        #[serde(default, rename = "match", skip_serializing_if = "is_default")]
        mode: TitleMatch,
        value: String,
        #[serde(default, skip_serializing_if = "is_false")]
        negate: bool,
    },
    /// Desktop: the application class (`WM_CLASS`) of the focused window, case-insensitive.
    AppClass {
        value: String,
        #[serde(default, skip_serializing_if = "is_false")]
        negate: bool,
    },
    /// Desktop: some window matches the selector (`title` with `match`, and/or `app_class`).
    WindowExists {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        #[serde(default, rename = "match", skip_serializing_if = "is_default")]
        mode: TitleMatch,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        app_class: Option<String>,
        #[serde(default, skip_serializing_if = "is_false")]
        negate: bool,
    },
    /// Desktop: the focused window matches the selector.
    WindowFocused {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        #[serde(default, rename = "match", skip_serializing_if = "is_default")]
        mode: TitleMatch,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        app_class: Option<String>,
        #[serde(default, skip_serializing_if = "is_false")]
        negate: bool,
    },
    /// A run variable (set by an `extract` action) or parameter compared with `value`.
    /// A variable not set yet fails the check, negated or not.
    Variable {
        name: String,
        #[serde(default, rename = "match", skip_serializing_if = "is_default")]
        mode: VariableMatch,
        value: String,
        #[serde(default, skip_serializing_if = "is_false")]
        negate: bool,
    },
}

impl Check {
    /// Whether the check looks at the desktop's windows rather than a page.
    pub fn is_desktop(&self) -> bool {
        matches!(
            self,
            Check::WindowTitle { .. }
                | Check::AppClass { .. }
                | Check::WindowExists { .. }
                | Check::WindowFocused { .. }
        )
    }

    /// The window selector of `window_exists` and `window_focused`.
    pub fn window_selector(&self) -> Option<WindowSelector> {
        match self {
            Check::WindowExists { title, mode, app_class, .. }
            | Check::WindowFocused { title, mode, app_class, .. } => {
                Some(WindowSelector { title: title.clone(), mode: *mode, app_class: app_class.clone() })
            }
            _ => None,
        }
    }
}

/// How a `variable` check compares. The numeric comparisons read the first number in the
/// variable and in `value` (`$1,234.50` is 1234.5) and fail when either has none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum VariableMatch {
    #[default]
    Equals,
    Contains,
    /// A regular expression (Rust `regex` syntax), searched anywhere in the value.
    Pattern,
    LessThan,
    AtMost,
    GreaterThan,
    AtLeast,
}

/// Which desktop window is meant: every field that is set must match; at least one is set.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WindowSelector {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// How `title` is compared (default `exact`).
    #[serde(default, rename = "match", skip_serializing_if = "is_default")]
    pub mode: TitleMatch,
    /// The application class or instance (`WM_CLASS`), compared case-insensitively.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app_class: Option<String>,
}

impl WindowSelector {
    pub fn is_empty(&self) -> bool {
        self.title.is_none() && self.app_class.is_none()
    }
}

/// A point in pixels: on the screen, or inside a window's client area.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Point {
    pub x: i32,
    pub y: i32,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UrlMatch {
    #[default]
    Exact,
    Prefix,
    /// A regular expression (Rust `regex` syntax), searched anywhere in the URL.
    Pattern,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TitleMatch {
    #[default]
    Exact,
    Contains,
    Pattern,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TextMatch {
    #[default]
    Equals,
    Contains,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SelectorKind {
    #[default]
    Css,
    Xpath,
}

impl Workflow {
    /// The run variables its `extract` and `use_skill` actions set, in the order first written.
    pub fn variables(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for action in self.states.iter().flat_map(|s| &s.actions) {
            let set: Vec<&String> = match action {
                Action::Extract { into, .. } => vec![into],
                Action::UseSkill { outputs, .. } => outputs.keys().collect(),
                _ => Vec::new(),
            };
            for name in set {
                if !names.contains(&name.as_str()) {
                    names.push(name);
                }
            }
        }
        names
    }

    /// The skills its `use_skill` actions name, each once.
    pub fn skills_used(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for action in self.states.iter().flat_map(|s| &s.actions) {
            if let Action::UseSkill { skill, .. } = action
                && !names.contains(&skill.as_str())
            {
                names.push(skill);
            }
        }
        names
    }
}

impl State {
    /// A state with a name and its checks, and nothing else yet.
    pub fn new(name: impl Into<String>, checks: Vec<Check>) -> State {
        State {
            name: name.into(),
            description: String::new(),
            prompt: None,
            checks,
            actions: Vec::new(),
            continuous: false,
            interrupt: false,
            next: Vec::new(),
            expect: Vec::new(),
            terminal: None,
        }
    }

    pub fn is_terminal(&self) -> bool {
        self.terminal.is_some()
    }

    /// A state the model still has to make concrete: a prompt and no checks.
    pub fn awaits_synthesis(&self) -> bool {
        self.checks.is_empty() && self.prompt.as_deref().is_some_and(|p| !p.trim().is_empty())
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_default<T: Default + PartialEq>(t: &T) -> bool {
    *t == T::default()
}
