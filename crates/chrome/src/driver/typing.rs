//! `type`'s keys: most fields take text as it is inserted, fast; a page that takes keys
//! itself (a terminal adding each `keydown`'s key to its prompt and emptying the field it
//! listens on, an input mask) sees only the keys a person would press.

use serde_json::Value;
use statewright_engine::{DriverError, DriverResult};

use super::{ChromeDriver, Doc};
use crate::input;

/// How many characters are pressed as keys before the field is looked at: the second key
/// is the first a page that empties its field on each key shows (the first leaves it as
/// a plain field would).
const PROBE_KEYS: usize = 2;

impl ChromeDriver {
    /// Types `text` into the focused field: its first characters as key presses, then, when
    /// they went in as text (the field holds what it held and them), the rest as one insertion
    /// and a last key; else the rest a key for each character.
    pub(super) async fn type_into(&self, doc: &Doc, text: &str) -> DriverResult<()> {
        let split = text.char_indices().nth(PROBE_KEYS).map_or(text.len(), |(at, _)| at);
        let (probe, rest) = text.split_at(split);
        if rest.is_empty() {
            return input::press_each(self.raw(), probe).await.map_err(DriverError::Browser);
        }
        let before = self.typed_value(doc).await?;
        input::press_each(self.raw(), probe).await.map_err(DriverError::Browser)?;
        let after = self.typed_value(doc).await?;
        let took_text = matches!((&before, &after), (Some(b), Some(a)) if *a == format!("{b}{probe}"));
        let typed = if took_text {
            input::type_text(self.raw(), rest).await
        } else {
            input::press_each(self.raw(), rest).await
        };
        typed.map_err(DriverError::Browser)
    }

    /// What the focused field of `doc` holds; None without one.
    async fn typed_value(&self, doc: &Doc) -> DriverResult<Option<String>> {
        let answer = self.page_op(doc, "typedValue", &[]).await?;
        Ok(answer.get("value").and_then(Value::as_str).map(str::to_owned))
    }
}
