//! How an action finds its elements: a [`Target`], and which of an action's elements one
//! is ([`TargetField`]), as healing and saved fixes name them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How an action finds its element. Exactly one of `css`, `xpath`, `text` or `role` is set;
/// `name` narrows `role` by accessible name; `exact: false` matches `text` or `name` as a
/// person reads them; `nth` picks among several matches (0-based).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Target {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub css: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub xpath: Option<String>,
    /// The element whose whitespace-normalised visible text equals this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// An ARIA role (explicit or implicit), e.g. `button`, `link`, `textbox`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// With `role`: the accessible name, matched exactly after whitespace normalisation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `false`: `text` or `name` is found in any case and within a longer text (`Checkout`
    /// finds "Checkout →" and "CHECKOUT"), as Playwright's `getByText` finds it. Default
    /// `true`. Healing tries a target loosely when it finds nothing exactly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nth: Option<u32>,
}

impl Target {
    /// This target matched as a person reads it, when it names its element by text or name
    /// and is exact: a workflow written from the screen says "SIGN IN" where the page's text
    /// is "Sign in" (a style makes it capitals), or "Checkout" for "Checkout →".
    pub fn loosened(&self) -> Option<Target> {
        let named = self.text.is_some() || self.name.is_some();
        (named && self.exact != Some(false)).then(|| Target { exact: Some(false), ..self.clone() })
    }
}

/// Which of an action's elements: the one it works on (`target`), or the one a `drag` lets
/// go on (`to`). Named as the action's field is in a workflow file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TargetField {
    #[default]
    Target,
    To,
}

impl TargetField {
    pub fn name(self) -> &'static str {
        match self {
            TargetField::Target => "target",
            TargetField::To => "to",
        }
    }

    pub fn from_name(name: &str) -> Option<TargetField> {
        [TargetField::Target, TargetField::To].into_iter().find(|f| f.name() == name)
    }

    /// What follows "action N" where a heal of it is said: nothing for the action's own
    /// target, ` to` for a drag's drop zone.
    pub fn suffix(self) -> &'static str {
        match self {
            TargetField::Target => "",
            TargetField::To => " to",
        }
    }
}
