//! A review as the window shows it: the store's item with its escalation request spread
//! out, and the page's elements typed. Generated into the TypeScript bindings, so the UI
//! has no hand-written copy.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use statewright_engine::OpenTab;
use statewright_engine::review::{PendingAction, Tried};
use statewright_store::{ReviewItem, ReviewSummary};
use statewright_workflow::Check;

/// A review shown whole: what the queue lists of it, then its request spread out.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ReviewView {
    #[serde(flatten)]
    pub summary: ReviewSummary,
    /// What the escalation chain tried before asking, in order.
    pub tried: Vec<Tried>,
    /// A path under the runs folder, served over `shot:`.
    pub screenshot: Option<String>,
    pub url: String,
    pub title: String,
    pub elements: Vec<PageElement>,
    /// The run's other open tabs, the one it was on most recently first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tabs: Vec<OpenTab>,
    pub action: Option<PendingAction>,
    pub states: Vec<String>,
    pub suggested_checks: Vec<Check>,
}

/// An interactive element of the page, as the driver's snapshot reports it (an entry
/// without the first seven fields is not shown).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PageElement {
    /// A stable id within the step (`e12`).
    pub id: String,
    pub tag: String,
    pub role: String,
    /// The accessible name.
    pub name: String,
    pub text: String,
    pub rect: Rect,
    /// A CSS selector that finds exactly this element.
    pub selector: String,
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub input_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checked: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placeholder: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub href: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disabled: Option<bool>,
}

/// In CSS pixels of the viewport.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

impl ReviewView {
    pub fn of(item: &ReviewItem) -> Self {
        let request = &item.request;
        let page = request.observation.as_ref();
        // Elements come from the page: anything malformed is dropped, never fatal.
        let elements = page
            .and_then(|p| p.elements.as_array())
            .map(|list| list.iter().filter_map(|e| serde_json::from_value(e.clone()).ok()).collect())
            .unwrap_or_default();
        Self {
            summary: item.summary.clone(),
            tried: request.tried.clone(),
            screenshot: item.screenshot.clone(),
            url: page.map(|p| p.url.clone()).unwrap_or_default(),
            title: page.map(|p| p.title.clone()).unwrap_or_default(),
            elements,
            tabs: page.map(|p| p.tabs.clone()).unwrap_or_default(),
            action: request.action.clone(),
            states: request.states.clone(),
            suggested_checks: request.suggested_checks.clone(),
        }
    }
}
