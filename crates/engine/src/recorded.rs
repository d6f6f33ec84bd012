//! A page as a step recorded it (its address, title, visible text and interactive
//! elements), asked the probes a live page answers, so that checks written from a past page
//! (`statewright synthesize`) are held to it by the one matcher every run uses. A record is
//! less than the page: a probe it cannot decide comes back as one the page could not
//! evaluate, saying why, rather than as a guess either way.

use serde_json::Value;
use statewright_workflow::{SelectorKind, TextMatch};

use crate::driver::{Observation, Probe, ProbeError, Signals};

/// How much of a page's visible text an observation keeps: the browser driver cuts it
/// there, so a record this long may have lost the rest.
pub const OBSERVED_TEXT_CHARS: usize = 20_000;

impl Observation {
    /// What this record says of `probes`: a result for each, and for each it cannot decide
    /// a probe error saying why (which the matcher counts as failing, and
    /// [`crate::matcher::Matcher::outcomes`] reports as undecided).
    pub fn recorded_signals(&self, probes: &[Probe]) -> Signals {
        let mut signals = Signals { url: self.url.clone(), title: self.title.clone(), ..Signals::default() };
        for (index, probe) in probes.iter().enumerate() {
            let decided = self.decide(probe);
            signals.results.push(decided.as_ref().is_ok_and(|holds| *holds));
            if let Err(message) = decided {
                signals.errors.push(ProbeError { index, message });
            }
        }
        signals
    }

    fn decide(&self, probe: &Probe) -> Result<bool, String> {
        match probe {
            Probe::Text { value, mode } => self.decide_text(&normalised(value), *mode),
            Probe::Element { by: SelectorKind::Css, selector } => {
                // Each snapshot element was found by its selector, alone and visible, when
                // the step was recorded; other elements (headings, containers) are not kept.
                if self.snapshot().any(|e| e.get("selector").and_then(Value::as_str) == Some(selector.as_str())) {
                    Ok(true)
                } else {
                    Err("the step's snapshot keeps only the page's interactive elements, and none by this selector"
                        .to_owned())
                }
            }
            Probe::Element { by: SelectorKind::Xpath, .. } => {
                Err("the step's snapshot keeps its elements by CSS selector, not XPath".to_owned())
            }
            Probe::Window { .. } => Err("the desktop's windows are not part of a page record".to_owned()),
        }
    }

    /// A text probe as the page answers it (a value that normalises to nothing never
    /// holds): `contains` searches the page's text; `equals` asks for an element whose text
    /// is the value, which the text alone shows only when the value is nowhere in it.
    fn decide_text(&self, value: &str, mode: TextMatch) -> Result<bool, String> {
        if value.is_empty() {
            return Ok(false);
        }
        let text = normalised(&self.text);
        let shown = match mode {
            TextMatch::Contains => text.contains(value),
            TextMatch::Equals => {
                let own = |e: &Value| e.get("text").and_then(Value::as_str).map(normalised);
                if self.snapshot().any(|e| own(e).as_deref() == Some(value)) {
                    return Ok(true);
                }
                // A style may show the page's text in capitals.
                let somewhere = text.to_lowercase().contains(&value.to_lowercase());
                if somewhere {
                    return Err("the step's text shows it, but not whether one element's text is exactly it".to_owned());
                }
                false
            }
        };
        if shown {
            Ok(true)
        } else if text.is_empty() {
            Err("the step kept no text of the page".to_owned())
        } else if self.text.chars().count() >= OBSERVED_TEXT_CHARS {
            Err(format!("the step kept only the first {OBSERVED_TEXT_CHARS} characters of the page's text"))
        } else {
            Ok(false)
        }
    }

    fn snapshot(&self) -> impl Iterator<Item = &Value> {
        self.elements.as_array().into_iter().flatten()
    }
}

/// Text as checks compare it, as the in-page library's `norm` makes it: without the
/// characters that show nothing, each run of white space one space, trimmed.
fn normalised(text: &str) -> String {
    let invisible = |c: &char| {
        matches!(c, '\u{AD}' | '\u{200B}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}')
            || matches!(c, '\u{2066}'..='\u{2069}' | '\u{FEFF}')
    };
    let shown: String = text.chars().filter(|c| !invisible(c)).collect();
    shown.split_whitespace().collect::<Vec<_>>().join(" ")
}
