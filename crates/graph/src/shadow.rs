//! Shadowed states: a state whose every check is implied by the checks of a state recognised
//! before it can never win.
//!
//! Trying every pair of states is quadratic: 10,000 states took most of a minute, 50,000 did
//! not finish. A state is shadowed only by a state whose every check its own imply, so the
//! states worth trying are found through an index of the checks that can be looked up (URLs,
//! CSS selectors, visible text); a state with none of those is still compared with every
//! other.

use std::borrow::Cow;
use std::collections::HashMap;

use statewright_workflow::{Check, SelectorKind, TextMatch, UrlMatch, Workflow};

use crate::findings::{Finding, FindingKind, finding};
use crate::implies::{all_implied, normalise};

/// The most pieces of one text looked up in the index of texts to find the texts it
/// contains (its length times the lengths indexed); a longer text is compared with every
/// state indexed by a text instead.
const MOST_TEXT_LOOKUPS: usize = 100_000;

/// Whether state `a` is recognised before state `b` when both match: interrupts first,
/// then file order.
fn beats(workflow: &Workflow, a: usize, b: usize) -> bool {
    let (sa, sb) = (&workflow.states[a], &workflow.states[b]);
    (sa.interrupt && !sb.interrupt) || (sa.interrupt == sb.interrupt && a < b)
}

/// A state whose every check is implied by a lower one's: the lower can never win.
pub(crate) fn shadowed(workflow: &Workflow, found: &mut Vec<Finding>) {
    let states = &workflow.states;
    let index = CheckIndex::new(workflow);
    for low in 0..states.len() {
        if states[low].checks.is_empty() {
            continue;
        }
        // The first state in file order that shadows it: each list is in file order, so its
        // first that does is the list's, and the lowest of those is the one. Taken list by
        // list, not merged: with thousands of states under one key (the same check), the
        // first of the list usually does, and merging made each state cost them all.
        let winner = index
            .candidates(&states[low].checks)
            .into_iter()
            .filter_map(|list| {
                list.iter().copied().filter(|&high| high != low && beats(workflow, high, low)).find(|&high| {
                    #[cfg(test)]
                    tests::COMPARED.with(|c| c.set(c.get() + 1));
                    all_implied(&states[low].checks, &states[high].checks)
                })
            })
            .min();
        let Some(high) = winner else { continue };
        let (low_name, high_name) = (&states[low].name, &states[high].name);
        let both_interrupts = states[low].interrupt && states[high].interrupt;
        let outcome = if !workflow.config.allow_multiple_states && !both_interrupts && !states[high].interrupt {
            "and with `allow_multiple_states: false` every page it matches fails the run as ambiguous"
        } else {
            "so it can never win"
        };
        found.push(finding(
            FindingKind::Shadowed,
            vec![low_name.clone(), high_name.clone()],
            format!(
                "state `{low_name}` is shadowed by `{high_name}`: wherever all of its checks hold, all of \
                 `{high_name}`'s hold too, and `{high_name}` is recognised first, {outcome}"
            ),
            format!(
                "give `{high_name}` a check that rules out `{low_name}`'s pages (a `negate`d check of `{low_name}`), \
                 or move `{low_name}` above it"
            ),
        ));
    }
}

/// The states by one check each that can be looked up by what implies it. A state is
/// shadowed only by a state all of whose checks its own imply, so a state whose check is
/// looked up here is worth trying only when that check is implied.
struct CheckIndex {
    /// States by a URL prefix they require (not negated).
    prefixes: HashMap<String, Vec<usize>>,
    /// The lengths of those prefixes in bytes, ascending: the only prefixes of a URL worth
    /// looking up.
    prefix_lengths: Vec<usize>,
    /// States by an exact URL they require (not negated).
    exact: HashMap<String, Vec<usize>>,
    /// States by a CSS selector (trimmed) they require.
    css: HashMap<String, Vec<usize>>,
    /// States by a text (whitespace-normalised) the page must equal.
    text_equals: HashMap<String, Vec<usize>>,
    /// States by a text (whitespace-normalised) the page must contain.
    text_contains: HashMap<String, Vec<usize>>,
    /// The lengths of those texts in bytes, ascending: the only pieces of a text worth
    /// looking up.
    text_lengths: Vec<usize>,
    /// States with no such check: every state is compared with them.
    unindexed: Vec<usize>,
}

/// A check that can be looked up, by its kind and value.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Key<'a> {
    Prefix(&'a str),
    Exact(&'a str),
    Css(&'a str),
    TextEquals(Cow<'a, str>),
    TextContains(Cow<'a, str>),
}

impl<'a> Key<'a> {
    fn of(check: &'a Check) -> Option<Self> {
        match check {
            Check::Url { mode: UrlMatch::Prefix, value, negate: false } => Some(Self::Prefix(value)),
            Check::Url { mode: UrlMatch::Exact, value, negate: false } => Some(Self::Exact(value)),
            Check::Element { by: SelectorKind::Css, selector, negate: false } => Some(Self::Css(selector.trim())),
            Check::Text { mode: TextMatch::Equals, value, negate: false } => Some(Self::TextEquals(normalise(value))),
            Check::Text { mode: TextMatch::Contains, value, negate: false } => {
                Some(Self::TextContains(normalise(value)))
            }
            _ => None,
        }
    }
}

impl CheckIndex {
    fn new(workflow: &Workflow) -> Self {
        let mut index = Self {
            prefixes: HashMap::new(),
            prefix_lengths: Vec::new(),
            exact: HashMap::new(),
            css: HashMap::new(),
            text_equals: HashMap::new(),
            text_contains: HashMap::new(),
            text_lengths: Vec::new(),
            unindexed: Vec::new(),
        };
        // Each state under its rarest key: states of one web app that all require the app's
        // URL prefix, told apart by their elements, go under their elements.
        let mut uses: HashMap<Key, usize> = HashMap::new();
        for key in workflow.states.iter().flat_map(|s| &s.checks).filter_map(Key::of) {
            *uses.entry(key).or_default() += 1;
        }
        for (i, state) in workflow.states.iter().enumerate() {
            let (map, key) = match state.checks.iter().filter_map(Key::of).min_by_key(|key| uses[key]) {
                Some(Key::Prefix(key)) => (&mut index.prefixes, Cow::Borrowed(key)),
                Some(Key::Exact(key)) => (&mut index.exact, Cow::Borrowed(key)),
                Some(Key::Css(key)) => (&mut index.css, Cow::Borrowed(key)),
                Some(Key::TextEquals(key)) => (&mut index.text_equals, key),
                Some(Key::TextContains(key)) => (&mut index.text_contains, key),
                None => {
                    index.unindexed.push(i);
                    continue;
                }
            };
            map.entry(key.into_owned()).or_default().push(i);
        }
        index.prefix_lengths = lengths(&index.prefixes);
        index.text_lengths = lengths(&index.text_contains);
        index
    }

    /// The states indexed by a text that `text` (whitespace-normalised) contains: each piece
    /// of it as long as an indexed text is looked up, or, for a text with too many pieces,
    /// every state indexed by a text the page must contain.
    fn contained_in<'s>(&'s self, text: &str, found: &mut Vec<&'s [usize]>) {
        let lengths: Vec<usize> = self.text_lengths.iter().copied().take_while(|&len| len <= text.len()).collect();
        if text.len().saturating_mul(lengths.len()) > MOST_TEXT_LOOKUPS {
            found.extend(self.text_contains.values().map(Vec::as_slice));
            return;
        }
        let starts = || text.char_indices().map(|(i, _)| i);
        for len in lengths {
            if len == 0 {
                found.extend(self.text_contains.get("").map(Vec::as_slice));
                continue;
            }
            for piece in starts().filter_map(|i| text.get(i..i + len)) {
                found.extend(self.text_contains.get(piece).map(Vec::as_slice));
            }
        }
    }

    /// The states whose indexed check one of `stronger` implies (see `implies`: an exact URL
    /// or a longer prefix implies a prefix of it, an exact URL itself, a selector itself),
    /// and those not indexed: lists of states, each in file order, each once.
    fn candidates(&self, stronger: &[Check]) -> Vec<&[usize]> {
        let mut found = vec![self.unindexed.as_slice()];
        for check in stronger {
            match check {
                Check::Url { mode, value, negate: false } if *mode != UrlMatch::Pattern => {
                    let lengths = self.prefix_lengths.iter().take_while(|&&len| len <= value.len());
                    let prefixes = lengths.filter_map(|&len| value.get(..len));
                    for prefix in prefixes {
                        found.extend(self.prefixes.get(prefix).map(Vec::as_slice));
                    }
                    if *mode == UrlMatch::Exact {
                        found.extend(self.exact.get(value).map(Vec::as_slice));
                    }
                }
                Check::Element { by: SelectorKind::Css, selector, negate: false } => {
                    found.extend(self.css.get(selector.trim()).map(Vec::as_slice));
                }
                // An equal text implies an equal one and both imply the texts they contain.
                Check::Text { mode, value, negate: false } => {
                    let text = normalise(value);
                    if *mode == TextMatch::Equals {
                        found.extend(self.text_equals.get(text.as_ref()).map(Vec::as_slice));
                    }
                    self.contained_in(&text, &mut found);
                }
                _ => {}
            }
        }
        // A list reached by two checks (two prefixes of one URL) is searched once.
        found.sort_unstable_by_key(|list| list.as_ptr());
        found.dedup_by_key(|list| list.as_ptr());
        found
    }
}

/// The lengths in bytes of `map`'s keys, ascending, each once.
fn lengths(map: &HashMap<String, Vec<usize>>) -> Vec<usize> {
    let mut lengths: Vec<usize> = map.keys().map(String::len).collect();
    lengths.sort_unstable();
    lengths.dedup();
    lengths
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;
    use crate::testing::workflow;

    thread_local! {
        /// How many pairs of states `shadowed` compared.
        pub(super) static COMPARED: Cell<usize> = const { Cell::new(0) };
    }

    fn state(name: &str, checks: serde_json::Value) -> serde_json::Value {
        serde_json::json!({ "name": name, "checks": checks, "next": ["Done"] })
    }

    fn shadowed_pairs(w: &Workflow) -> Vec<(String, String)> {
        let mut found = Vec::new();
        shadowed(w, &mut found);
        found.into_iter().map(|f| (f.states[0].clone(), f.states[1].clone())).collect()
    }

    /// What comparing every pair of states finds.
    fn brute_pairs(w: &Workflow) -> Vec<(String, String)> {
        (0..w.states.len())
            .filter_map(|low| {
                let high = (0..w.states.len())
                    .filter(|&h| h != low && beats(w, h, low))
                    .find(|&h| all_implied(&w.states[low].checks, &w.states[h].checks))?;
                Some((w.states[low].name.clone(), w.states[high].name.clone()))
            })
            .collect()
    }

    static DONE: std::sync::LazyLock<serde_json::Value> = std::sync::LazyLock::new(
        || serde_json::json!({ "name": "Done", "checks": [{ "type": "element", "selector": "#done" }], "terminal": { "outcome": "success" } }),
    );

    fn text(mode: &str, value: &str) -> serde_json::Value {
        serde_json::json!({ "type": "text", "match": mode, "value": value })
    }

    #[test]
    fn states_told_apart_by_text_alone_are_compared_only_with_those_whose_text_theirs_contains() {
        let n = 5_000;
        let mut states: Vec<_> = (0..n)
            .map(|i| state(&format!("t{i}"), serde_json::json!([text("contains", &format!("Item {i} of the list"))])))
            .collect();
        // Shadowed: t7, by a state before it wanting less of its text, and a page saying more.
        states.insert(3, state("Less", serde_json::json!([text("contains", "Item 7 of")])));
        states.push(state("More", serde_json::json!([text("equals", "Item  7 of the list, read")])));
        states.push(DONE.clone());
        let w = workflow(states);
        COMPARED.with(|c| c.set(0));
        let pairs = shadowed_pairs(&w);
        assert_eq!(pairs, [("t7", "Less"), ("More", "Less")].map(|(a, b)| (a.to_owned(), b.to_owned())));
        let compared = COMPARED.with(Cell::get);
        assert!(compared < 6 * n, "{compared} pairs compared for {n} states");
    }

    #[test]
    fn looked_up_texts_find_what_comparing_every_pair_finds() {
        let words = ["Order", "confirmed", "  Order", "é", "Pay", "r c", "Order confirmed", "now "];
        for seed in 0..40 {
            let mut pick = crate::testing::numbers(seed);
            let states: Vec<_> = (0..60)
                .map(|i| {
                    let checks: Vec<_> = (0..1 + pick(2))
                        .map(|_| {
                            let value: String =
                                (0..1 + pick(3)).map(|_| words[pick(words.len())]).collect::<Vec<_>>().join(" ");
                            let mode = ["contains", "equals"][pick(2)];
                            if pick(8) == 0 {
                                serde_json::json!({ "type": "text", "match": mode, "value": value, "negate": true })
                            } else {
                                text(mode, &value)
                            }
                        })
                        .collect();
                    let mut s = state(&format!("s{i}"), serde_json::Value::Array(checks));
                    s["interrupt"] = serde_json::json!(pick(10) == 0);
                    s
                })
                .chain([DONE.clone()])
                .collect();
            let w = workflow(states);
            assert_eq!(shadowed_pairs(&w), brute_pairs(&w), "seed {seed}");
        }
    }

    #[test]
    fn each_state_is_compared_only_with_the_states_whose_checks_could_imply_its_own() {
        let n = 5_000;
        let url = |value: &str| serde_json::json!([{ "type": "url", "match": "prefix", "value": value }]);
        let mut states: Vec<_> = (0..n).map(|i| state(&format!("s{i}"), url(&format!("http://x/{i}/")))).collect();
        // Shadowed: s7, by a state before it wanting the same prefix, and a page under it.
        states.insert(3, state("Wider", url("http://x/7/")));
        states.push(state("Deeper", url("http://x/7/a")));
        // One web app: every view requires the app's address, each its own element.
        let app = |i: usize| {
            serde_json::json!([
                { "type": "url", "match": "prefix", "value": "http://app/" },
                { "type": "element", "selector": format!("#view-{i}") },
            ])
        };
        states.extend((0..n).map(|i| state(&format!("v{i}"), app(i))));
        states.push(serde_json::json!({ "name": "Done", "checks": [{ "type": "element", "selector": "#done" }], "terminal": { "outcome": "success" } }));
        let w = workflow(states);
        COMPARED.with(|c| c.set(0));
        let pairs = shadowed_pairs(&w);
        assert_eq!(pairs, [("s7", "Wider"), ("Deeper", "Wider")].map(|(a, b)| (a.to_owned(), b.to_owned())));
        // Every pair would be 2n * 2n / 2: fifty million.
        let compared = COMPARED.with(Cell::get);
        assert!(compared < 6 * n, "{compared} pairs compared for {} states", 2 * n);
    }

    /// Thousands of states with the same check (a generated workflow): each is shadowed by
    /// the first, found at once; taking every state under the key for each made it quadratic
    /// (10,000 states: 7 s, 50,000: 3 minutes).
    #[test]
    fn thousands_of_states_with_one_and_the_same_check_are_found_shadowed_at_once() {
        let n = 20_000;
        let url = serde_json::json!([{ "type": "url", "match": "prefix", "value": "http://x/" }]);
        let mut states: Vec<_> = (0..n).map(|i| state(&format!("s{i}"), url.clone())).collect();
        states.push(DONE.clone());
        let w = workflow(states);
        COMPARED.with(|c| c.set(0));
        let started = std::time::Instant::now();
        let pairs = shadowed_pairs(&w);
        assert_eq!(pairs.len(), n - 1);
        assert!(pairs.iter().all(|(_, high)| high == "s0"), "{:?}", &pairs[..3]);
        // Each is compared once either way: what took the time was gathering them. The limit
        // is ten times what it takes now in a debug build; the old way took over 20 s.
        assert!(started.elapsed() < std::time::Duration::from_secs(10), "{:?}", started.elapsed());
    }

    #[test]
    fn looked_up_checks_find_what_comparing_every_pair_finds() {
        let url = |mode: &str, value: &str| serde_json::json!({ "type": "url", "match": mode, "value": value });
        let css = |selector: &str| serde_json::json!({ "type": "element", "selector": selector });
        let w = workflow(vec![
            state("Prefix", serde_json::json!([url("prefix", "http://x/")])),
            state("Selector", serde_json::json!([css(" #b ")])),
            state("Exact", serde_json::json!([url("exact", "http://x/a"), css("#b")])),
            state("Same exact", serde_json::json!([url("exact", "http://x/a")])),
            state("Exact first", serde_json::json!([url("exact", "http://q/")])),
            state("Exact again", serde_json::json!([url("exact", "http://q/")])),
            state("Less text", serde_json::json!([text("contains", "Order")])),
            state("Text", serde_json::json!([text("equals", "Order  confirmed")])),
            state("Pattern", serde_json::json!([url("pattern", "x")])),
            state("Only selector", serde_json::json!([css("#b")])),
            state("Under popup", serde_json::json!([url("exact", "http://y/z"), css("#c")])),
            serde_json::json!({ "name": "Popup", "interrupt": true, "checks": [url("prefix", "http://y/")] }),
            serde_json::json!({ "name": "Done", "checks": [css("#done")], "terminal": { "outcome": "success" } }),
        ]);
        let pairs = shadowed_pairs(&w);
        assert_eq!(pairs, brute_pairs(&w));
        let names: Vec<String> = pairs.iter().map(|(a, b)| format!("{a}<{b}")).collect();
        assert_eq!(
            names,
            [
                "Exact<Prefix",
                "Same exact<Prefix",
                "Exact again<Exact first",
                "Text<Less text",
                "Only selector<Selector",
                "Under popup<Popup"
            ]
        );
    }
}
