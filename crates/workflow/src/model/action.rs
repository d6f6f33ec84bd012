//! Actions: the typed whitelist of what a state may do, and how an action names its
//! element. Nothing outside [`Action`] can run.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Choices, Point, Target, TargetField, TitleMatch, WindowSelector, is_default, is_false};

/// What an `extract` action reads from the page.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExtractRead {
    /// The element's visible text, whitespace-normalised: one line.
    #[default]
    Text,
    /// The element's visible text with the line breaks the page shows (`<br>`, blocks,
    /// table rows, `<pre>`), as the browser lays it out: one text, its lines joined by `\n`.
    Lines,
    /// One of the element's attributes (`attribute` names it).
    Attribute,
    /// A form field's current value.
    Value,
    /// How many visible elements match the target (0 is an answer: this does not wait).
    Count,
    /// The text of every visible match, as a JSON array (empty is an answer).
    List,
    /// A `<table>` (or ARIA table/grid): its rows as a JSON array of objects keyed by the
    /// header cells, or of arrays when it has no header.
    Table,
}

impl ExtractRead {
    /// Whether the result is one string, which a `pattern` may narrow.
    pub fn is_text(self) -> bool {
        matches!(self, ExtractRead::Text | ExtractRead::Lines | ExtractRead::Attribute | ExtractRead::Value)
    }
}

/// Which of the run's tabs is meant: every field that is set must match.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TabSelector {
    /// The tab's address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The tab's document title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// How `url` and `title` are compared (default `contains`: an address carries a query
    /// string and a title a site's name, which a workflow rarely wants to spell out).
    #[serde(default = "contains", rename = "match", skip_serializing_if = "is_contains")]
    pub mode: TitleMatch,
}

impl Default for TabSelector {
    fn default() -> Self {
        Self { url: None, title: None, mode: TitleMatch::Contains }
    }
}

impl TabSelector {
    pub fn is_empty(&self) -> bool {
        self.url.is_none() && self.title.is_none()
    }

    /// Whether a tab with this address and title is meant (an invalid pattern matches
    /// nothing; validation reports it first).
    pub fn matches(&self, url: &str, title: &str) -> bool {
        let compare = |wanted: &Option<String>, actual: &str| match (wanted, self.mode) {
            (None, _) => true,
            (Some(w), TitleMatch::Exact) => actual == w,
            (Some(w), TitleMatch::Contains) => actual.contains(w.as_str()),
            (Some(w), TitleMatch::Pattern) => regex::Regex::new(w).is_ok_and(|re| re.is_match(actual)),
        };
        compare(&self.url, url) && compare(&self.title, title)
    }

    /// The tab whose title is `title`, as a person saw it: exactly, or, when it carries
    /// numbers (an unread count, "(3) Inbox"; a cart, "Cart (2)"), as a pattern in which
    /// any number stands for them, since they change by themselves.
    pub fn titled(title: &str) -> TabSelector {
        let numbers = regex::Regex::new(r"\d+").expect("a valid pattern");
        if !numbers.is_match(title) {
            return TabSelector { title: Some(title.to_owned()), mode: TitleMatch::Exact, ..TabSelector::default() };
        }
        let parts: Vec<String> = numbers.split(title).map(regex::escape).collect();
        let pattern = format!("^{}$", parts.join(r"\d+"));
        TabSelector { title: Some(pattern), mode: TitleMatch::Pattern, ..TabSelector::default() }
    }

    /// A tab as it was seen: by its title (see `titled`), or by its exact address while it
    /// has none yet. With neither, nothing is named (the tab before).
    pub fn naming(title: &str, url: &str) -> TabSelector {
        match (title.trim().is_empty(), url.is_empty()) {
            (false, _) => TabSelector::titled(title),
            (true, false) => {
                TabSelector { url: Some(url.to_owned()), mode: TitleMatch::Exact, ..TabSelector::default() }
            }
            (true, true) => TabSelector::default(),
        }
    }
}

fn contains() -> TitleMatch {
    TitleMatch::Contains
}

fn is_contains(mode: &TitleMatch) -> bool {
    *mode == TitleMatch::Contains
}

/// The typed action whitelist. Nothing outside this enum can run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    NavigateTo {
        url: String,
    },
    /// The page before in the tab's history, as the browser's Back button.
    GoBack {},
    Click {
        target: Target,
        #[serde(default, skip_serializing_if = "is_default")]
        button: MouseButton,
        /// 2 for a double click.
        #[serde(default = "one", skip_serializing_if = "is_one")]
        count: u32,
        /// Where inside the element, as fractions of its width and height (default centre).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        position: Option<Position>,
    },
    Type {
        target: Target,
        text: String,
        /// Replace the field's content (the default, like Playwright's `fill`, so a state
        /// entered again types the same text again); `false` appends to it.
        #[serde(default = "yes", skip_serializing_if = "is_true")]
        clear: bool,
    },
    /// A key name (`Enter`, `Tab`, `a`) or a combination (`Control+A`), sent to the focused element.
    PressKey {
        key: String,
    },
    Scroll {
        direction: Direction,
        /// Pixels.
        #[serde(default = "default_scroll_amount")]
        amount: u32,
        /// Scroll inside this element instead of the page.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<Target>,
    },
    ScrollTo {
        target: Target,
    },
    Hover {
        target: Target,
    },
    /// Press on the target, carry it to `to` and let go there, as a person drags a card to
    /// another column, a row to another place in its list, or a slider's handle along its
    /// track. `position` is where inside `to` to let go, as fractions of its width and height
    /// (default centre).
    Drag {
        target: Target,
        to: Target,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        position: Option<Position>,
    },
    /// Choose an option of a `<select>` by its value or its visible label (one of them). A
    /// list chooses exactly those options of a `<select multiple>`, every other one
    /// deselected; a single `<select>` takes a list of one only.
    SelectOption {
        target: Target,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        value: Option<Choices>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        label: Option<Choices>,
    },
    /// Make a checkbox, radio button or switch (a native one, or an ARIA `checkbox`, `radio`,
    /// `switch`, `menuitemcheckbox` or `menuitemradio`) checked, or with `checked: false`
    /// unchecked. It is clicked only when it is not so already, so a state entered again does
    /// not undo it, and the click must have made it so. The target may be the control, its
    /// label, or an element holding one such control.
    Check {
        target: Target,
        #[serde(default = "yes", skip_serializing_if = "is_true")]
        checked: bool,
    },
    /// Give a file field these files, as a person does in the file chooser: paths as
    /// statewright and the browser see them, relative ones from the directory statewright
    /// runs in. The target
    /// is the `<input type=file>` (shown or hidden, or its label) or what opens the chooser
    /// (a styled button, a drop zone).
    Upload {
        target: Target,
        files: Vec<String>,
    },
    /// Click the target and keep the file it downloads in the run's folder as `filename` (a
    /// plain file name: the name the site suggests is only reported). Waits for the download
    /// to finish, up to `timeout` seconds (default 120).
    Download {
        target: Target,
        filename: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        timeout: Option<f64>,
    },
    Wait {
        seconds: f64,
    },
    /// Wait until the target is visible (default timeout: the workflow's `action_timeout`).
    WaitFor {
        target: Target,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        timeout: Option<f64>,
    },
    /// Read from the page into the run variable `into`: usable as `{{into}}` from the next
    /// action on, asserted by `variable` checks, and reported among the run's outputs.
    Extract {
        target: Target,
        into: String,
        #[serde(default, skip_serializing_if = "is_default")]
        read: ExtractRead,
        /// With `read: attribute`: which one, e.g. `href`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        attribute: Option<String>,
        /// A regular expression the text must match; the first group (or the whole match,
        /// without groups) is kept. Only for `text`, `lines`, `attribute` and `value`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pattern: Option<String>,
    },
    /// Run the skill `skill` (from the `skills/` folder beside `workflows/`) with `args`
    /// as its parameters: its preconditions must hold first and its postconditions after.
    /// `outputs` copies its variables into this run's: `{"here": "there"}`.
    UseSkill {
        skill: String,
        #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
        args: IndexMap<String, String>,
        #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
        outputs: IndexMap<String, String>,
    },
    /// Save the page's HTML into the run folder.
    SaveHtml {
        filename: String,
    },
    /// Save a PNG screenshot into the run folder.
    Screenshot {
        filename: String,
    },
    /// Make another of the run's open tabs its page: the one `tab` names (the most recently
    /// used, if several match), or, with `tab` empty, the tab the run was on before this one.
    /// `close` closes the tab the run leaves (an advertisement, a finished popup).
    SwitchTab {
        #[serde(default, skip_serializing_if = "TabSelector::is_empty")]
        tab: TabSelector,
        #[serde(default, skip_serializing_if = "is_false")]
        close: bool,
    },
    /// Desktop: start a program (a path or a name on `PATH`); does not wait for a window.
    Launch {
        program: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        args: Vec<String>,
    },
    /// Desktop: raise and focus a window.
    FocusWindow {
        window: WindowSelector,
    },
    /// Desktop: click at a point of the screen, or of `window`'s client area.
    MouseClick {
        x: i32,
        y: i32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        window: Option<WindowSelector>,
        #[serde(default, skip_serializing_if = "is_default")]
        button: MouseButton,
        #[serde(default = "one", skip_serializing_if = "is_one")]
        count: u32,
    },
    /// Desktop: press the left button at `from`, move, release at `to`.
    MouseDrag {
        from: Point,
        to: Point,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        window: Option<WindowSelector>,
    },
    /// Desktop: wheel notches at a point (positive `dy` scrolls down, positive `dx` right).
    ScrollAt {
        x: i32,
        y: i32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        window: Option<WindowSelector>,
        #[serde(default, skip_serializing_if = "is_default")]
        dx: i32,
        #[serde(default, skip_serializing_if = "is_default")]
        dy: i32,
    },
    /// Desktop: press a key or combination (`Enter`, `Control+Shift+T`) in the focused window.
    KeyCombo {
        keys: String,
    },
    /// Desktop: type text into the focused window (`\n` is Enter).
    TypeText {
        text: String,
    },
    /// Desktop: wait until a visible window matches (default timeout: `action_timeout`).
    WaitForWindow {
        window: WindowSelector,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        timeout: Option<f64>,
    },
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MouseButton {
    #[default]
    Left,
    Right,
    Middle,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Position {
    pub x: f64,
    pub y: f64,
}

impl Action {
    /// The snake_case name used in files and logs.
    pub fn kind(&self) -> &'static str {
        match self {
            Action::NavigateTo { .. } => "navigate_to",
            Action::GoBack {} => "go_back",
            Action::Click { .. } => "click",
            Action::Type { .. } => "type",
            Action::PressKey { .. } => "press_key",
            Action::Scroll { .. } => "scroll",
            Action::ScrollTo { .. } => "scroll_to",
            Action::Hover { .. } => "hover",
            Action::Drag { .. } => "drag",
            Action::SelectOption { .. } => "select_option",
            Action::Check { .. } => "check",
            Action::Upload { .. } => "upload",
            Action::Download { .. } => "download",
            Action::Wait { .. } => "wait",
            Action::WaitFor { .. } => "wait_for",
            Action::Extract { .. } => "extract",
            Action::UseSkill { .. } => "use_skill",
            Action::SaveHtml { .. } => "save_html",
            Action::Screenshot { .. } => "screenshot",
            Action::SwitchTab { .. } => "switch_tab",
            Action::Launch { .. } => "launch",
            Action::FocusWindow { .. } => "focus_window",
            Action::MouseClick { .. } => "mouse_click",
            Action::MouseDrag { .. } => "mouse_drag",
            Action::ScrollAt { .. } => "scroll_at",
            Action::KeyCombo { .. } => "key_combo",
            Action::TypeText { .. } => "type_text",
            Action::WaitForWindow { .. } => "wait_for_window",
        }
    }

    /// Whether the action works on the desktop rather than a page.
    pub fn is_desktop(&self) -> bool {
        matches!(
            self,
            Action::Launch { .. }
                | Action::FocusWindow { .. }
                | Action::MouseClick { .. }
                | Action::MouseDrag { .. }
                | Action::ScrollAt { .. }
                | Action::KeyCombo { .. }
                | Action::TypeText { .. }
                | Action::WaitForWindow { .. }
        )
    }

    /// Whether the action needs a page (`wait` needs neither a page nor a desktop, and a
    /// skill needs what its own states do).
    pub fn is_browser(&self) -> bool {
        !self.is_desktop() && !matches!(self, Action::Wait { .. } | Action::UseSkill { .. })
    }

    /// The window a desktop action is aimed at, if any.
    pub fn window(&self) -> Option<&WindowSelector> {
        match self {
            Action::FocusWindow { window } | Action::WaitForWindow { window, .. } => Some(window),
            Action::MouseClick { window, .. } | Action::MouseDrag { window, .. } | Action::ScrollAt { window, .. } => {
                window.as_ref()
            }
            _ => None,
        }
    }

    /// The file this action writes into the run's folder, if any.
    pub fn filename(&self) -> Option<&str> {
        match self {
            Action::SaveHtml { filename } | Action::Screenshot { filename } | Action::Download { filename, .. } => {
                Some(filename)
            }
            _ => None,
        }
    }

    /// The element this action works on, if any.
    pub fn target(&self) -> Option<&Target> {
        match self {
            Action::Click { target, .. }
            | Action::Type { target, .. }
            | Action::ScrollTo { target }
            | Action::Hover { target }
            | Action::Drag { target, .. }
            | Action::SelectOption { target, .. }
            | Action::Check { target, .. }
            | Action::Upload { target, .. }
            | Action::Download { target, .. }
            | Action::WaitFor { target, .. }
            | Action::Extract { target, .. } => Some(target),
            Action::Scroll { target, .. } => target.as_ref(),
            _ => None,
        }
    }

    /// The element in `field`: the one the action works on, or the one a `drag` lets go on.
    pub fn target_in(&self, field: TargetField) -> Option<&Target> {
        match (field, self) {
            (TargetField::Target, _) => self.target(),
            (TargetField::To, Action::Drag { to, .. }) => Some(to),
            (TargetField::To, _) => None,
        }
    }

    /// The element in `field`, to replace it (a healed locator, say).
    pub fn target_in_mut(&mut self, field: TargetField) -> Option<&mut Target> {
        match (field, self) {
            (TargetField::Target, action) => action.target_mut(),
            (TargetField::To, Action::Drag { to, .. }) => Some(to),
            (TargetField::To, _) => None,
        }
    }

    /// The element this action works on, to replace it (a healed locator, say).
    pub fn target_mut(&mut self) -> Option<&mut Target> {
        match self {
            Action::Click { target, .. }
            | Action::Type { target, .. }
            | Action::ScrollTo { target }
            | Action::Hover { target }
            | Action::Drag { target, .. }
            | Action::SelectOption { target, .. }
            | Action::Check { target, .. }
            | Action::Upload { target, .. }
            | Action::Download { target, .. }
            | Action::WaitFor { target, .. }
            | Action::Extract { target, .. } => Some(target),
            Action::Scroll { target, .. } => target.as_mut(),
            _ => None,
        }
    }
}

fn is_true(b: &bool) -> bool {
    *b
}

fn yes() -> bool {
    true
}

fn one() -> u32 {
    1
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

fn default_scroll_amount() -> u32 {
    500
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tab(json: serde_json::Value) -> TabSelector {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn a_tab_is_named_by_part_of_its_address_or_title_unless_told_otherwise() {
        let docs = tab(serde_json::json!({"url": "/docs"}));
        assert_eq!(docs.mode, TitleMatch::Contains, "contains by default");
        assert!(docs.matches("https://shop.example/docs?page=2", "Help"));
        assert!(!docs.matches("https://shop.example/cart", "Help /docs"), "the address, not the title");
        let exact = tab(serde_json::json!({"title": "Help", "match": "exact"}));
        assert!(exact.matches("https://a/", "Help") && !exact.matches("https://a/", "Help centre"));
        let both = tab(serde_json::json!({"url": "^https://shop\\.", "title": "^Cart", "match": "pattern"}));
        assert!(both.matches("https://shop.example/c", "Cart (2)"));
        assert!(!both.matches("https://shop.example/c", "Your Cart"), "every field that is set must match");
        assert!(
            !tab(serde_json::json!({"url": "(", "match": "pattern"})).matches("(", ""),
            "a bad pattern matches nothing"
        );
    }

    #[test]
    fn a_title_seen_is_named_exactly_unless_it_carries_numbers() {
        let plain = TabSelector::titled("Voucher form (new)");
        assert_eq!((plain.title.as_deref(), plain.mode), (Some("Voucher form (new)"), TitleMatch::Exact));
        let inbox = TabSelector::titled("(3) Inbox — mail.example");
        assert_eq!(
            (inbox.title.as_deref(), inbox.mode),
            (Some(r"^\(\d+\) Inbox — mail\.example$"), TitleMatch::Pattern)
        );
        assert!(inbox.matches("", "(12) Inbox — mail.example"));
        assert!(!inbox.matches("", "(12) Inbox — mail.example.evil"), "anchored");
        assert!(TabSelector::titled("Order 4711 of 2026").matches("", "Order 4712 of 2026"));
    }

    #[test]
    fn check_is_checked_unless_it_says_otherwise() {
        let on: Action =
            serde_json::from_value(serde_json::json!({"type": "check", "target": {"css": "#news"}})).unwrap();
        assert!(matches!(on, Action::Check { checked: true, .. }));
        assert_eq!(
            serde_json::to_value(&on).unwrap(),
            serde_json::json!({"type": "check", "target": {"css": "#news"}})
        );
        assert_eq!(on.to_string(), "check #news");
        let off = Action::Check { target: on.target().unwrap().clone(), checked: false };
        assert_eq!(serde_json::to_value(&off).unwrap()["checked"], false);
        assert_eq!(off.to_string(), "uncheck #news");
    }

    #[test]
    fn go_back_is_its_type_alone() {
        let back: Action = serde_json::from_value(serde_json::json!({"type": "go_back"})).unwrap();
        assert_eq!(back, Action::GoBack {});
        assert_eq!(serde_json::to_value(&back).unwrap(), serde_json::json!({"type": "go_back"}));
        assert_eq!(back.to_string(), "go_back");
        assert!(back.is_browser());
        let extra = serde_json::from_value::<Action>(serde_json::json!({"type": "go_back", "steps": 2}));
        assert!(extra.is_err(), "unknown fields are refused");
    }

    #[test]
    fn switch_tab_reads_and_writes_only_what_is_not_a_default() {
        let back: Action = serde_json::from_value(serde_json::json!({"type": "switch_tab"})).unwrap();
        assert_eq!(back, Action::SwitchTab { tab: TabSelector::default(), close: false });
        assert_eq!(serde_json::to_value(&back).unwrap(), serde_json::json!({"type": "switch_tab"}));
        assert_eq!(back.to_string(), "switch_tab the previous tab");
        let away = serde_json::json!({"type": "switch_tab", "tab": {"title": "Ad", "match": "exact"}, "close": true});
        let action: Action = serde_json::from_value(away.clone()).unwrap();
        assert_eq!(serde_json::to_value(&action).unwrap(), away);
        assert_eq!(action.to_string(), r#"switch_tab title "Ad", closing this one"#);
        assert!(action.is_browser() && action.target().is_none());
    }
}
