//! Literals that equal a parameter's value, written as `{{name}}` so that a draft replays
//! with other values: typed text and chosen options when equal to one, URLs where a value is
//! a part of them (an origin, a query value), labels and selectors where a value stands as a
//! word of its own (the product in "Add to cart" of the card headed `'Kettle'`).

use std::collections::BTreeSet;

use statewright_workflow::params::MASK;

/// Values shorter than this stand for themselves inside longer strings ("2" is in too much).
const MIN_PART: usize = 3;

pub struct Literals {
    /// (name, value), longest value first, so `http://h:1/x` wins over `http://h:1`.
    values: Vec<(String, String)>,
    /// The names written into the draft so far.
    pub used: BTreeSet<String>,
}

impl Literals {
    pub fn new(params: &[(String, String)]) -> Literals {
        let mut values: Vec<(String, String)> = params
            .iter()
            .filter(|(_, v)| !v.trim().is_empty() && !v.contains(MASK))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        values.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
        values.dedup_by(|a, b| a.1 == b.1);
        Literals { values, used: BTreeSet::new() }
    }

    /// The value a parameter had in the demonstration, for the draft's default.
    pub fn value_of(&self, name: &str) -> Option<&str> {
        self.values.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// Typed text, a chosen option: a parameter only when equal to its value.
    pub fn whole(&mut self, s: &str) -> String {
        match self.values.iter().find(|(_, v)| v == s) {
            Some((k, _)) => {
                self.used.insert(k.clone());
                format!("{{{{{k}}}}}")
            }
            None => s.to_owned(),
        }
    }

    /// A file chosen for an upload, known by name only: the parameter whose value is a path
    /// to a file of that name (`-p resume=/home/ada/cv.pdf` for `cv.pdf`), if one is.
    pub fn file(&mut self, name: &str) -> Option<String> {
        let named = |v: &str| std::path::Path::new(v).file_name().is_some_and(|n| n.to_string_lossy() == name);
        let (k, _) = self.values.iter().find(|(_, v)| named(v))?;
        self.used.insert(k.clone());
        Some(format!("{{{{{k}}}}}"))
    }

    /// A URL: values inside it, and query values equal to one.
    pub fn url(&mut self, s: &str) -> String {
        let mut out = self.parts(s, |_, _| true);
        if let Some((head, query)) = out.clone().split_once('?') {
            let mut pairs = Vec::new();
            for pair in query.split('&') {
                match pair.split_once('=') {
                    Some((k, v)) if !v.is_empty() && !v.contains("{{") => pairs.push(format!("{k}={}", self.whole(v))),
                    _ => pairs.push(pair.to_owned()),
                }
            }
            out = format!("{head}?{}", pairs.join("&"));
        }
        out
    }

    /// A label, a check's value, a selector: values that stand as words of their own.
    pub fn text(&mut self, s: &str) -> String {
        if self.values.iter().any(|(_, v)| v == s) {
            return self.whole(s);
        }
        self.parts(s, |before, after| {
            let apart = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
            apart(before) && apart(after)
        })
    }

    fn parts(&mut self, s: &str, bounded: impl Fn(Option<char>, Option<char>) -> bool) -> String {
        let mut out = s.to_owned();
        for (name, value) in &self.values {
            if value.len() < MIN_PART {
                continue;
            }
            let mut rebuilt = String::with_capacity(out.len());
            let mut rest = out.as_str();
            let mut replaced = false;
            while let Some(i) = rest.find(value.as_str()) {
                let before = rest[..i].chars().last().or_else(|| rebuilt.chars().last());
                let after = rest[i + value.len()..].chars().next();
                rebuilt.push_str(&rest[..i]);
                // Inside a `{{…}}` already written, or glued to other words: left alone.
                if bounded(before, after) && !rebuilt.ends_with("{{") {
                    rebuilt.push_str(&format!("{{{{{name}}}}}"));
                    replaced = true;
                } else {
                    rebuilt.push_str(value);
                }
                rest = &rest[i + value.len()..];
            }
            rebuilt.push_str(rest);
            if replaced {
                self.used.insert(name.clone());
                out = rebuilt;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn literals() -> Literals {
        Literals::new(&[
            ("site".into(), "http://127.0.0.1:4000".into()),
            ("seed".into(), "3".into()),
            ("product".into(), "Kettle".into()),
            ("quantity".into(), "2".into()),
            ("password".into(), MASK.into()),
        ])
    }

    #[test]
    fn urls_typed_text_and_labels_become_parameters() {
        let mut l = literals();
        assert_eq!(l.url("http://127.0.0.1:4000/?seed=3"), "{{site}}/?seed={{seed}}");
        assert_eq!(l.url("http://127.0.0.1:4000/search.html?q=Kettle"), "{{site}}/search.html?q={{product}}");
        assert_eq!(l.whole("2"), "{{quantity}}");
        assert_eq!(l.whole("22"), "22");
        assert_eq!(
            l.text("//article[.//h3[normalize-space()='Kettle']]//button"),
            "//article[.//h3[normalize-space()='{{product}}']]//button"
        );
        assert_eq!(l.text("Kettles and pans"), "Kettles and pans", "only where it stands apart");
        assert_eq!(l.text("Room 2"), "Room 2", "short values only when the whole string");
        assert_eq!(l.used.iter().collect::<Vec<_>>(), ["product", "quantity", "seed", "site"]);
        assert_eq!(l.value_of("password"), None, "masked values are not literals");
    }
}
