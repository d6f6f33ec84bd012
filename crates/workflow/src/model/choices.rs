//! What a `select_option` chooses by: one option's value or label, or several of a
//! `<select multiple>`. A workflow says one as a string (files from before lists were
//! allowed read unchanged, and one is still written so) and several as a list.

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

/// One string, or a list of them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Choices {
    One(String),
    Many(Vec<String>),
}

impl Choices {
    /// Every entry, in the order written.
    pub fn as_slice(&self) -> &[String] {
        match self {
            Choices::One(one) => std::slice::from_ref(one),
            Choices::Many(many) => many,
        }
    }

    /// Every entry, to fill in or rewrite (a `{{name}}` in each, say).
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, String> {
        match self {
            Choices::One(one) => std::slice::from_mut(one).iter_mut(),
            Choices::Many(many) => many.iter_mut(),
        }
    }

    /// The entry when there is exactly one (a string, or a list of one).
    pub fn single(&self) -> Option<&str> {
        match self.as_slice() {
            [one] => Some(one),
            _ => None,
        }
    }

    /// Whether it is a list (of any length): a list holds each entry as it is, so a
    /// variable holding "Leia, Yoda" stays one entry.
    pub fn is_list(&self) -> bool {
        matches!(self, Choices::Many(_))
    }
}

impl From<String> for Choices {
    fn from(one: String) -> Self {
        Choices::One(one)
    }
}

impl From<&str> for Choices {
    fn from(one: &str) -> Self {
        Choices::One(one.to_owned())
    }
}

impl From<Vec<String>> for Choices {
    fn from(many: Vec<String>) -> Self {
        Choices::Many(many)
    }
}

impl std::fmt::Display for Choices {
    /// Each entry quoted, joined by ", ": `"Leia", "Yoda"`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, entry) in self.as_slice().iter().enumerate() {
            write!(f, "{}{entry:?}", if i == 0 { "" } else { ", " })?;
        }
        Ok(())
    }
}

/// By hand rather than untagged, so a wrong value is said as what it is ("invalid type:
/// integer `3`, expected a string or a list of strings") rather than as matching no variant.
impl<'de> Deserialize<'de> for Choices {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ChoicesVisitor)
    }
}

struct ChoicesVisitor;

impl<'de> serde::de::Visitor<'de> for ChoicesVisitor {
    type Value = Choices;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a string or a list of strings")
    }

    fn visit_str<E: serde::de::Error>(self, one: &str) -> Result<Choices, E> {
        Ok(Choices::One(one.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, one: String) -> Result<Choices, E> {
        Ok(Choices::One(one))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Choices, A::Error> {
        let mut many = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        while let Some(entry) = seq.next_element::<String>()? {
            many.push(entry);
        }
        Ok(Choices::Many(many))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_string_reads_and_writes_as_a_string_and_a_list_as_a_list() {
        let one: Choices = serde_json::from_str(r#""Leia""#).unwrap();
        assert_eq!(one, Choices::One("Leia".into()));
        assert_eq!(serde_json::to_string(&one).unwrap(), r#""Leia""#);
        let many: Choices = serde_json::from_str(r#"["Leia", "Yoda"]"#).unwrap();
        assert_eq!(many.as_slice(), ["Leia", "Yoda"]);
        assert_eq!(serde_json::to_string(&many).unwrap(), r#"["Leia","Yoda"]"#);
        // A list of one stays a list: it is what the file says.
        let listed: Choices = serde_json::from_str(r#"["Leia, Yoda"]"#).unwrap();
        assert_eq!((listed.single(), listed.is_list()), (Some("Leia, Yoda"), true));
        assert_eq!(serde_json::to_string(&listed).unwrap(), r#"["Leia, Yoda"]"#);
    }

    #[test]
    fn anything_else_is_said_as_what_it_is() {
        let number = serde_json::from_str::<Choices>("3").unwrap_err().to_string();
        assert!(number.contains("expected a string or a list of strings"), "{number}");
        let nested = serde_json::from_str::<Choices>(r#"["Leia", 3]"#).unwrap_err().to_string();
        assert!(nested.contains("expected a string"), "{nested}");
    }
}
