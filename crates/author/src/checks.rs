//! Choosing a state's checks from recorded pages: checks that hold on every page of the
//! situation and, together, on no page of any other, so that no two states of a draft match
//! the same recorded page. Checks are judged against snapshots, conservatively: a check is
//! taken to hold only where the snapshot shows it does, and to be absent only where the
//! page's text does not even mention it.

use std::cell::RefCell;
use std::collections::HashMap;

use statewright_workflow::{Check, SelectorKind, TextMatch, UrlMatch};

use crate::trajectory::{Page, normalize};

/// How a recorded page answers a check; `None` when a snapshot cannot tell (an XPath).
pub fn holds(check: &Check, page: &Page) -> Option<bool> {
    let (positive, negate) = match check {
        Check::Url { mode, value, negate } => (url_matches(*mode, value, &page.url), *negate),
        Check::Title { value, negate, .. } => (page.title == *value, *negate),
        Check::Text { mode, value, negate } => {
            let v = normalize(value);
            let shown = page.elements.iter().any(|e| match mode {
                TextMatch::Equals => normalize(e.shown()) == v,
                TextMatch::Contains => normalize(e.shown()).contains(&v),
            });
            // Absent only if the page's text does not mention it at all.
            let mentioned = page.text.contains(&v);
            // The page's visible text holds it, which is what a `contains` check reads.
            let shown = shown || (*mode == TextMatch::Contains && mentioned);
            return match (*negate, shown, mentioned) {
                (false, true, _) => Some(true),
                (false, false, false) => Some(false),
                (true, _, false) => Some(true),
                (true, true, _) => Some(false),
                _ => None,
            };
        }
        Check::Element { by: SelectorKind::Css, selector, negate } => {
            (page.elements.iter().any(|e| e.selector == *selector), *negate)
        }
        Check::Element { by: SelectorKind::Xpath, selector, negate } => {
            // Our own XPaths name their element and its context by text: all of it shown.
            let literals = xpath_literals(selector);
            if literals.is_empty() {
                return None;
            }
            (literals.iter().all(|l| page.text.contains(l.as_str())), *negate)
        }
        _ => return None,
    };
    Some(positive != negate)
}

fn url_matches(mode: UrlMatch, value: &str, url: &str) -> bool {
    match mode {
        UrlMatch::Exact => url == value,
        UrlMatch::Prefix => url.starts_with(value),
        UrlMatch::Pattern => pattern_matches(value, url),
    }
}

/// Whether `url` matches the pattern, compiled once for all the pages it is asked of:
/// choosing each situation's checks asks them of every other situation's pages, and a
/// pattern compiled at each asking made a session of 500 pages take two minutes.
fn pattern_matches(pattern: &str, url: &str) -> bool {
    thread_local! {
        static COMPILED: RefCell<HashMap<String, Option<regex::Regex>>> = RefCell::new(HashMap::new());
    }
    COMPILED.with(|compiled| {
        let mut compiled = compiled.borrow_mut();
        if !compiled.contains_key(pattern) {
            compiled.insert(pattern.to_owned(), regex::Regex::new(pattern).ok());
        }
        compiled[pattern].as_ref().is_some_and(|r| r.is_match(url))
    })
}

/// The quoted strings of an XPath (`normalize-space()='Pan'`).
fn xpath_literals(xpath: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = xpath;
    while let Some(i) = rest.find(['\'', '"']) {
        let quote = rest.as_bytes()[i] as char;
        let tail = &rest[i + 1..];
        let Some(end) = tail.find(quote) else { break };
        out.push(tail[..end].to_owned());
        rest = &tail[end + 1..];
    }
    out
}

/// Where a page is: origin and path, with path segments that carry ids made a pattern; and
/// its hash router's route (`#/orders/7`) when it has one, the route's query aside.
pub fn url_check(url: &str) -> Option<Check> {
    if url == "about:blank" {
        return Some(Check::Url { mode: UrlMatch::Exact, value: url.to_owned(), negate: false });
    }
    let (origin, rest) = split_origin(url)?;
    let path = rest.split(['?', '#']).next().unwrap_or("");
    let segments: Vec<&str> = path.split('/').collect();
    let carries_ids = segments.iter().any(|s| looks_like_id(s));
    let at_root = path.is_empty() || path == "/" || path == "/index.html";
    let route = hash_route(url);
    if !carries_ids && !at_root && route.is_none() {
        return Some(Check::Url { mode: UrlMatch::Prefix, value: format!("{origin}{path}"), negate: false });
    }
    // The root would be a prefix of every page of the site; ids vary between visits.
    let mut path_pattern = generalised(&segments);
    if at_root {
        path_pattern = "/(index\\.html)?".to_owned();
    }
    // The origin stays as written (its dots match themselves too), so that a parameter
    // standing for it (`{{site}}`) can still be written in.
    let value = match route {
        Some(route) => {
            let route = generalised(&route.split('/').collect::<Vec<_>>());
            format!("^{origin}{path_pattern}(\\?[^#]*)?#{route}/?(\\?.*)?$")
        }
        None => format!("^{origin}{path_pattern}([?#].*)?$"),
    };
    Some(Check::Url { mode: UrlMatch::Pattern, value, negate: false })
}

/// Path segments as a pattern, where those that carry ids match any.
fn generalised(segments: &[&str]) -> String {
    let pattern: Vec<String> =
        segments.iter().map(|s| if looks_like_id(s) { "[^/?#]+".to_owned() } else { regex::escape(s) }).collect();
    pattern.join("/")
}

/// The route of a hash router in `url` (`/orders/7` of `…/app#/orders/7?tab=2`, and `!/…` of
/// `#!/…`): a single-page application's page is there. A fragment that only names an anchor
/// of the page (`#reviews`) is none.
pub(crate) fn hash_route(url: &str) -> Option<&str> {
    let fragment = url.split_once('#')?.1;
    let route = fragment.split('?').next().unwrap_or("");
    (route.starts_with('/') || route.starts_with("!/")).then(|| route.trim_end_matches('/')).filter(|r| !r.is_empty())
}

fn split_origin(url: &str) -> Option<(&str, &str)> {
    let scheme_end = url.find("://")? + 3;
    let path_start = url[scheme_end..].find(['/', '?', '#']).map(|i| scheme_end + i).unwrap_or(url.len());
    Some((&url[..path_start], &url[path_start..]))
}

/// A path segment that names one record rather than a page: digits, a hash, a UUID.
fn looks_like_id(segment: &str) -> bool {
    let digits = segment.chars().filter(char::is_ascii_digit).count();
    !segment.is_empty()
        && (digits == segment.len()
            || (segment.len() >= 16 && segment.chars().all(|c| c.is_ascii_hexdigit() || c == '-'))
            || digits >= 4)
}

/// A CSS selector a redesign is likely to keep: an id that looks hand-written, a test id,
/// a form field's name.
pub fn stable_selector(selector: &str) -> bool {
    // As the in-page library judges ids: `option-3`, `row_12` follow a list's order.
    let positional = |id: &str| {
        id.rsplit(['-', '_']).next().is_some_and(|t| t.chars().all(|c| c.is_ascii_digit())) && id.contains(['-', '_'])
    };
    let simple_id = selector.strip_prefix('#').is_some_and(|id| {
        !id.is_empty()
            && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            && id.chars().filter(char::is_ascii_digit).count() < 3
            && !positional(id)
    });
    let attribute = selector.contains("[data-test") || selector.contains("[name=");
    (simple_id || attribute) && !selector.contains(' ') && !selector.contains(":nth")
}

/// A visible label worth a check: short, and not a number that changes between visits.
pub fn stable_label(label: &str) -> bool {
    let n = label.chars().count();
    (2..=60).contains(&n) && label.chars().filter(char::is_ascii_digit).count() < 3 && !label.contains('•')
}

/// The longest phrase a text check is made of, in words, and how far into a page's text
/// one is looked for.
const PHRASE_WORDS: usize = 4;
const PHRASE_SCAN_WORDS: usize = 1_000;
/// How many of the other pages an absent phrase is looked for in.
const PHRASE_SOURCES: usize = 3;

/// What is known about a situation while its checks are chosen.
pub struct Choice<'a> {
    /// The situation's pages: every check must hold on each.
    pub positives: Vec<&'a Page>,
    /// Every other situation's pages: together, the checks must fail on each.
    pub negatives: Vec<&'a Page>,
}

impl Choice<'_> {
    /// `chosen` extended, most telling candidate first, until no negative page matches all
    /// of them. Returns the pages still matched (they could not be told apart).
    pub fn complete(&self, chosen: &mut Vec<Check>) -> usize {
        let mut remaining: Vec<&Page> =
            self.negatives.iter().copied().filter(|p| chosen.iter().all(|c| holds(c, p) != Some(false))).collect();
        let candidates = self.candidates();
        while !remaining.is_empty() {
            let best = candidates
                .iter()
                .filter(|c| !chosen.contains(c))
                .map(|c| (remaining.iter().filter(|p| holds(c, p) == Some(false)).count(), c))
                .filter(|(excluded, _)| *excluded > 0)
                // The first of the best: candidates come in order of preference.
                .min_by_key(|(excluded, _)| std::cmp::Reverse(*excluded));
            let Some((_, check)) = best else { break };
            chosen.push(check.clone());
            remaining.retain(|p| holds(check, p) != Some(false));
        }
        // Pages alike in every element can still differ in what they say ("Saved", a
        // result): a phrase of the page's text tells them apart.
        if !remaining.is_empty()
            && let Some(phrase) = self.phrase(&remaining)
        {
            remaining.retain(|p| holds(&phrase, p) != Some(false));
            chosen.push(phrase);
        }
        remaining.len()
    }

    /// A short phrase of the pages' text that tells the positive pages from the most of
    /// `others`: one every positive page says and they do not, or one they say and no
    /// positive page does (then the check is its absence). Up to `PHRASE_WORDS` words, a
    /// stable label (no changing number); the fewest words win a tie, then the page's own
    /// phrase, then the earliest. Text checks are case-sensitive, and so is this.
    fn phrase(&self, others: &[&Page]) -> Option<Check> {
        let first = self.positives.first()?;
        let words = |page: &Page| -> Vec<String> {
            page.text.split_whitespace().take(PHRASE_SCAN_WORDS).map(str::to_owned).collect()
        };
        // Whose text a phrase is taken from, and whether the check is its absence.
        let mut sources = vec![(words(first), false)];
        sources.extend(others.iter().take(PHRASE_SOURCES).map(|p| (words(p), true)));
        let mut best: Option<(usize, Check)> = None;
        let mut tried = std::collections::HashSet::new();
        for n in 1..=PHRASE_WORDS {
            for (source, negate) in &sources {
                for window in source.windows(n) {
                    let phrase = window.join(" ");
                    // A short word alone ("Not", "the") says little about the page.
                    if (n == 1 && phrase.chars().count() < 4) || !stable_label(&phrase) || !tried.insert(phrase.clone())
                    {
                        continue;
                    }
                    let said = |p: &Page| p.text.contains(&phrase);
                    let (holds, excluded) = match negate {
                        false => (self.positives.iter().all(|p| said(p)), others.iter().filter(|p| !said(p)).count()),
                        true => (!self.positives.iter().any(|p| said(p)), others.iter().filter(|p| said(p)).count()),
                    };
                    if holds && excluded > best.as_ref().map_or(0, |b| b.0) {
                        let check = Check::Text { mode: TextMatch::Contains, value: phrase, negate: *negate };
                        best = Some((excluded, check));
                    }
                }
            }
            if best.as_ref().is_some_and(|b| b.0 == others.len()) {
                break;
            }
        }
        best.map(|(_, check)| check)
    }

    /// Checks that hold on every positive page, in order of preference (ties go to the
    /// earlier): stable selectors, visible labels, the title, then absences.
    fn candidates(&self) -> Vec<Check> {
        let Some(first) = self.positives.first() else { return Vec::new() };
        let on_all = |c: &Check| self.positives.iter().all(|p| holds(c, p) == Some(true));
        let mut out: Vec<Check> = Vec::new();
        let push = |c: Check, out: &mut Vec<Check>| {
            if !out.contains(&c) && on_all(&c) {
                out.push(c);
            }
        };
        for e in &first.elements {
            if stable_selector(&e.selector) {
                push(Check::Element { by: SelectorKind::Css, selector: e.selector.clone(), negate: false }, &mut out);
            }
        }
        for e in &first.elements {
            if stable_label(e.shown()) {
                push(Check::Text { mode: TextMatch::Equals, value: normalize(e.shown()), negate: false }, &mut out);
            }
        }
        if !first.title.is_empty() {
            push(Check::Title { mode: Default::default(), value: first.title.clone(), negate: false }, &mut out);
        }
        for page in &self.negatives {
            for e in &page.elements {
                if stable_selector(&e.selector) {
                    push(
                        Check::Element { by: SelectorKind::Css, selector: e.selector.clone(), negate: true },
                        &mut out,
                    );
                }
                if stable_label(e.shown()) {
                    push(Check::Text { mode: TextMatch::Equals, value: normalize(e.shown()), negate: true }, &mut out);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trajectory::Element;

    fn page(url: &str, labels: &[(&str, &str)]) -> Page {
        let elements = labels
            .iter()
            .map(|(selector, name)| Element {
                selector: (*selector).into(),
                name: (*name).into(),
                text: (*name).into(),
                role: "button".into(),
                ..Element::default()
            })
            .collect::<Vec<_>>();
        let text = labels.iter().map(|(_, n)| *n).collect::<Vec<_>>().join(" ");
        Page { url: url.into(), text, elements, ..Page::default() }
    }

    #[test]
    fn a_text_check_is_made_of_what_an_element_shows_not_of_its_accessible_name() {
        let element = |tag: &str, input_type: &str, name: &str, text: &str, value: &str| Element {
            tag: tag.into(),
            input_type: input_type.into(),
            name: name.into(),
            text: text.into(),
            value: value.into(),
            ..Element::default()
        };
        let elements = vec![
            // An icon button named by aria-label, a button named by other elements, a field
            // named by its label, a select named by its label and showing its choice.
            element("button", "button", "Close dialog", "×", ""),
            element("button", "button", "Size Choose", "Choose", ""),
            element("input", "text", "Username", "", "ada"),
            element("select", "", "Country", "Norway", "no"),
            element("input", "submit", "Sign in", "", "Sign in"),
        ];
        let page = Page { url: "http://h/".into(), text: "× Size Choose Norway".into(), elements, ..Page::default() };
        let choice = Choice { positives: vec![&page], negatives: Vec::new() };
        let texts: Vec<String> = choice
            .candidates()
            .into_iter()
            .filter_map(|c| match c {
                Check::Text { value, .. } => Some(value),
                _ => None,
            })
            .collect();
        assert_eq!(texts, ["Choose", "Sign in"]);
    }

    #[test]
    fn urls_are_generalised_where_they_carry_ids() {
        let check = |u| match url_check(u) {
            Some(Check::Url { mode, value, .. }) => (mode, value),
            other => panic!("{other:?}"),
        };
        assert_eq!(check("http://h:1/login.html?seed=3"), (UrlMatch::Prefix, "http://h:1/login.html".into()));
        let (mode, value) = check("http://h:1/orders/12345/edit");
        assert_eq!(mode, UrlMatch::Pattern);
        let re = regex::Regex::new(&value).unwrap();
        assert!(re.is_match("http://h:1/orders/99/edit") && !re.is_match("http://h:1/orders/99/view"));
        let (_, root) = check("http://h:1/?seed=3#reviews");
        let re = regex::Regex::new(&root).unwrap();
        assert!(
            re.is_match("http://h:1/") && re.is_match("http://h:1/index.html") && !re.is_match("http://h:1/login.html")
        );
    }

    #[test]
    fn a_hash_routers_route_is_part_of_where_a_page_is() {
        let Some(Check::Url { mode: UrlMatch::Pattern, value, .. }) = url_check("http://h:1/app/?v=2#/orders/7?tab=2")
        else {
            panic!("a route is matched by a pattern");
        };
        let re = regex::Regex::new(&value).unwrap();
        for same in ["http://h:1/app/#/orders/8", "http://h:1/app/?v=3#/orders/12/", "http://h:1/app/#/orders/9?tab=1"]
        {
            assert!(re.is_match(same), "{same} against {value}");
        }
        for other in
            ["http://h:1/app/#/orders", "http://h:1/app/#/orders/7/edit", "http://h:1/app/", "http://h:1/x/#/orders/7"]
        {
            assert!(!re.is_match(other), "{other} against {value}");
        }
        let Some(Check::Url { value, .. }) = url_check("http://h:1/#!/inbox") else { panic!() };
        let re = regex::Regex::new(&value).unwrap();
        assert!(re.is_match("http://h:1/index.html#!/inbox") && !re.is_match("http://h:1/#!/sent"), "{value}");
        assert_eq!(hash_route("http://h:1/docs#install"), None, "an anchor is no route");
        assert_eq!(hash_route("http://h:1/#/"), None, "the router's root is the page's");
    }

    #[test]
    fn checks_tell_a_situation_from_every_other_page() {
        let search = page("http://h/search", &[("#product", "Product"), ("#search", "Search")]);
        let results = page("http://h/search", &[("#product", "Product"), ("#search", "Search"), ("", "Add to cart")]);
        let choice = Choice { positives: vec![&search], negatives: vec![&results] };
        let mut chosen = vec![url_check(&search.url).unwrap()];
        assert_eq!(choice.complete(&mut chosen), 0);
        assert_eq!(chosen[1], Check::Text { mode: TextMatch::Equals, value: "Add to cart".into(), negate: true });
        assert!(chosen.iter().all(|c| holds(c, &search) == Some(true)));

        let choice = Choice { positives: vec![&results], negatives: vec![&search] };
        let mut chosen = vec![url_check(&results.url).unwrap()];
        assert_eq!(choice.complete(&mut chosen), 0);
        assert_eq!(chosen[1], Check::Text { mode: TextMatch::Equals, value: "Add to cart".into(), negate: false });

        // Two identical pages cannot be told apart, and the chooser says so.
        let twin = search.clone();
        let choice = Choice { positives: vec![&search], negatives: vec![&twin] };
        assert_eq!(choice.complete(&mut vec![url_check(&search.url).unwrap()]), 1);
    }

    #[test]
    fn pages_alike_in_every_element_are_told_apart_by_what_they_say() {
        let mut form = page("http://h/voucher", &[("#code", "Voucher code"), ("#redeem", "Redeem")]);
        form.text.push_str(" Not redeemed");
        let mut done = form.clone();
        done.text = done.text.replace("Not redeemed", "Redeemed VX-4711");
        let choice = Choice { positives: vec![&done], negatives: vec![&form] };
        let mut chosen = vec![url_check(&done.url).unwrap()];
        assert_eq!(choice.complete(&mut chosen), 0);
        // Not the code (a number that changes), and case matters: "Not redeemed" is no match.
        assert_eq!(chosen[1], Check::Text { mode: TextMatch::Contains, value: "Redeemed".into(), negate: false });
        assert_eq!(holds(&chosen[1], &form), Some(false));

        // The form says something of its own too; a short word alone is not taken for it.
        let choice = Choice { positives: vec![&form], negatives: vec![&done] };
        let mut chosen = vec![url_check(&form.url).unwrap()];
        assert_eq!(choice.complete(&mut chosen), 0);
        assert_eq!(chosen[1], Check::Text { mode: TextMatch::Contains, value: "redeemed".into(), negate: false });
        let twin = form.clone();
        let choice = Choice { positives: vec![&form], negatives: vec![&twin] };
        assert_eq!(choice.complete(&mut vec![url_check(&form.url).unwrap()]), 1);
    }

    #[test]
    fn a_page_that_says_less_is_told_by_what_it_does_not_say() {
        let first = page("http://h/orders", &[("", "Order 7 details"), ("", "Finish")]);
        let mut again = first.clone();
        again.text = "Order 7 details You looked at order 7 Finish".into();
        let choice = Choice { positives: vec![&first], negatives: vec![&again] };
        let mut chosen = vec![url_check(&first.url).unwrap()];
        assert_eq!(choice.complete(&mut chosen), 0);
        // Not "details Finish", a phrase of its own that only says nothing is between.
        assert_eq!(chosen[1], Check::Text { mode: TextMatch::Contains, value: "looked".into(), negate: true });
        assert_eq!((holds(&chosen[1], &first), holds(&chosen[1], &again)), (Some(true), Some(false)));
    }

    #[test]
    fn text_is_absent_only_where_the_page_does_not_mention_it() {
        let mut p = page("http://h/", &[("#a", "Sign in")]);
        p.text.push_str(" Order confirmed");
        let absent = |v: &str| holds(&Check::Text { mode: TextMatch::Equals, value: v.into(), negate: true }, &p);
        assert_eq!(absent("Sign in"), Some(false));
        assert_eq!(absent("Order confirmed"), None, "mentioned, maybe as a heading the snapshot does not list");
        assert_eq!(absent("Checkout"), Some(true));
    }
}
