//! A demonstration, whatever made it: the pages it saw, in order, and what was done on each.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use statewright_workflow::{Action, Target};

/// A demonstration of a task: a recording, an agent run, a past run, a seed 003 folder.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Trajectory {
    /// Where it came from, for the draft's descriptions ("run 20261125-…", a folder).
    pub source: String,
    /// What the task was, when the source says (a run's workflow description, a goal).
    pub task: Option<String>,
    pub pages: Vec<Page>,
    pub ending: Ending,
    /// Parameter values the demonstration used (secrets already masked), so literals equal
    /// to one are written as `{{name}}`.
    pub parameters: Vec<(String, String)>,
    /// What was odd while reading it (a missing screenshot, a truncated timeline).
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Ending {
    /// The task was done: the last page is where a success ends.
    Succeeded,
    /// It went wrong: the draft stops at the last page whose acts all worked.
    Failed { reason: String },
    /// Nobody said (a recording stopped by hand): the last page is taken as the goal.
    #[default]
    Unknown,
}

/// One page as it was when something was done on it (or, without acts, as it was seen).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Page {
    pub url: String,
    pub title: String,
    pub text: String,
    pub elements: Vec<Element>,
    /// The source's step number, for the draft's descriptions.
    pub step: u32,
    /// The name the source gave this page (a run's state), if any.
    pub label: Option<String>,
    /// The source knew this page as an overlay (a run's interrupt state).
    pub overlay: bool,
    pub acts: Vec<Act>,
}

/// One thing done on a page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Act {
    pub action: Action,
    /// Other ways to find the element acted on, most stable first.
    pub alternatives: Vec<Target>,
    /// The dialog the element was in, by name, when it was in one.
    pub dialog: Option<String>,
    /// Typed into a password field: the text is a secret parameter's.
    pub secret: bool,
}

impl Act {
    pub fn new(action: Action) -> Act {
        Act { action, alternatives: Vec::new(), dialog: None, secret: false }
    }
}

/// An element of a page's snapshot (the in-page library's `snapshot().elements`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Element {
    pub id: String,
    pub tag: String,
    pub role: String,
    pub name: String,
    pub text: String,
    pub selector: String,
    #[serde(rename = "type")]
    pub input_type: String,
    pub value: String,
    pub placeholder: String,
    pub href: String,
    pub dialog: Option<String>,
}

impl Element {
    /// Elements read leniently from a snapshot: entries that are not objects are skipped.
    pub fn list(snapshot: &Value) -> Vec<Element> {
        snapshot
            .as_array()
            .map(|items| items.iter().filter_map(|v| serde_json::from_value(v.clone()).ok()).collect())
            .unwrap_or_default()
    }

    /// What a person would call it: its accessible name, else its text.
    pub fn label(&self) -> &str {
        if self.name.is_empty() { &self.text } else { &self.name }
    }

    /// The text a `text` check finds it by: what it shows (an input button shows its
    /// value). Not its accessible name, which may come from `aria-label` or another element
    /// (a field's label), and never from a field's or a list's content.
    pub fn shown(&self) -> &str {
        match (self.tag.as_str(), self.input_type.as_str()) {
            ("input", "submit" | "button" | "reset") => &self.value,
            ("input" | "select" | "textarea", _) => "",
            _ => &self.text,
        }
    }

    /// Identity across snapshots of the same situation: role and name where it has them.
    pub fn key(&self) -> String {
        if self.label().is_empty() {
            format!("{}\u{0}{}", self.tag, self.selector)
        } else {
            format!("{}\u{0}{}", if self.role.is_empty() { &self.tag } else { &self.role }, self.label())
        }
    }

    /// Whether `target` would find this element, as far as a snapshot can tell.
    pub fn answers(&self, target: &Target) -> bool {
        if let Some(css) = &target.css {
            return *css == self.selector || css.strip_prefix('#').is_some_and(|id| self.selector == format!("#{id}"));
        }
        if let Some(role) = &target.role {
            let role_ok = role.eq_ignore_ascii_case(&self.role);
            return role_ok && target.name.as_ref().is_none_or(|n| normalize(n) == normalize(&self.name));
        }
        if let Some(text) = &target.text {
            let t = normalize(text);
            return t == normalize(&self.text) || t == normalize(&self.name);
        }
        false
    }
}

impl Page {
    /// Whether an act's element can be found on this page, as far as its snapshot tells.
    /// Targets a snapshot cannot judge (XPath) count as found when an alternative is.
    pub fn has_target(&self, act: &Act) -> bool {
        let Some(target) = act.action.target() else { return false };
        std::iter::once(target)
            .chain(&act.alternatives)
            .filter(|t| t.xpath.is_none() && t.nth.is_none())
            .any(|t| self.elements.iter().any(|e| e.answers(t)))
    }

    /// The element an act worked on, if the snapshot shows it.
    pub fn element_of(&self, act: &Act) -> Option<&Element> {
        let target = act.action.target()?;
        std::iter::once(target).chain(&act.alternatives).filter(|t| t.xpath.is_none() && t.nth.is_none()).find_map(
            |t| {
                let mut found = self.elements.iter().filter(|e| e.answers(t));
                let first = found.next()?;
                found.next().is_none().then_some(first)
            },
        )
    }
}

/// Whitespace collapsed, as the in-page library compares text.
pub fn normalize(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
