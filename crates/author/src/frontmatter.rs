//! The YAML front matter of seed 003's `SKILL.md`: the small part of YAML those files use
//! (nested maps by indentation, plain, single- and double-quoted scalars, comments), read
//! by hand. It is data from elsewhere: anything outside that part is an error with its
//! line, never guessed at.

use indexmap::IndexMap;

/// A front matter value: a scalar or a map.
#[derive(Debug, Clone, PartialEq)]
pub enum Yaml {
    Scalar(String),
    Map(IndexMap<String, Yaml>),
}

impl Yaml {
    pub fn get(&self, key: &str) -> Option<&Yaml> {
        match self {
            Yaml::Map(map) => map.get(key),
            Yaml::Scalar(_) => None,
        }
    }

    pub fn str(&self, key: &str) -> Option<&str> {
        match self.get(key)? {
            Yaml::Scalar(s) => Some(s),
            Yaml::Map(_) => None,
        }
    }
}

/// Splits `---\n<front matter>\n---\n<body>`; `None` without front matter.
pub fn split(text: &str) -> Option<(&str, &str)> {
    let rest = statewright_workflow::without_bom(text);
    let rest = rest.strip_prefix("---\n").or_else(|| rest.strip_prefix("---\r\n"))?;
    let end = rest.find("\n---").map(|i| i + 1).or_else(|| rest.starts_with("---").then_some(0))?;
    let body = rest[end + 3..].trim_start_matches(['\r', '\n']);
    Some((&rest[..end], body))
}

/// Parses front matter into a map; errors say which line and why.
pub fn parse(text: &str) -> Result<Yaml, String> {
    let lines: Vec<(usize, usize, &str)> = text
        .lines()
        .enumerate()
        .filter_map(|(i, raw)| {
            let line = raw.trim_end();
            let content = line.trim_start();
            if content.is_empty() || content.starts_with('#') {
                return None;
            }
            Some((i + 1, line.len() - content.len(), content))
        })
        .collect();
    let mut at = 0;
    let map = block(&lines, &mut at, 0)?;
    match lines.get(at) {
        Some((line, _, _)) => Err(format!("line {line}: indented less than the line before it expects")),
        None => Ok(Yaml::Map(map)),
    }
}

/// The map whose keys sit at `indent`, from line `at` on.
fn block(lines: &[(usize, usize, &str)], at: &mut usize, indent: usize) -> Result<IndexMap<String, Yaml>, String> {
    let mut map = IndexMap::new();
    while let Some(&(line, this, content)) = lines.get(*at) {
        if this < indent {
            break;
        }
        if this > indent {
            return Err(format!("line {line}: unexpected indentation"));
        }
        if content.starts_with("- ") || content == "-" {
            return Err(format!("line {line}: lists are not supported in SKILL.md front matter"));
        }
        let Some((key, rest)) = content.split_once(':') else {
            return Err(format!("line {line}: expected `key: value`"));
        };
        let key = unquote(key.trim(), line)?;
        let rest = rest.trim();
        *at += 1;
        let value = if rest.is_empty() {
            match lines.get(*at) {
                Some(&(_, deeper, _)) if deeper > indent => Yaml::Map(block(lines, at, deeper)?),
                _ => Yaml::Scalar(String::new()),
            }
        } else {
            Yaml::Scalar(scalar(rest, line)?)
        };
        if map.insert(key.clone(), value).is_some() {
            return Err(format!("line {line}: `{key}` is given twice"));
        }
    }
    Ok(map)
}

/// A scalar: quoted (with YAML's escapes) or plain (up to a ` #` comment).
fn scalar(text: &str, line: usize) -> Result<String, String> {
    if text.starts_with(['"', '\'']) {
        return unquote(text, line);
    }
    if text.starts_with(['[', '{', '|', '>', '&', '*', '!']) {
        return Err(format!("line {line}: `{text}` uses YAML beyond plain and quoted values"));
    }
    let plain = text.split(" #").next().unwrap_or(text).trim();
    Ok(if plain == "null" || plain == "~" { String::new() } else { plain.to_owned() })
}

fn unquote(text: &str, line: usize) -> Result<String, String> {
    let unclosed = || format!("line {line}: the quoted value {text} is not closed");
    if let Some(inner) = text.strip_prefix('\'') {
        let inner = inner.strip_suffix('\'').ok_or_else(unclosed)?;
        return Ok(inner.replace("''", "'"));
    }
    let Some(inner) = text.strip_prefix('"') else { return Ok(text.to_owned()) };
    let inner = inner.strip_suffix('"').filter(|i| !i.ends_with('\\') || i.ends_with("\\\\")).ok_or_else(unclosed)?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('"') => out.push('"'),
            Some('\\') => out.push('\\'),
            Some('/') => out.push('/'),
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                let c = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32);
                out.push(c.ok_or_else(|| format!("line {line}: bad escape \\u{hex}"))?);
            }
            other => {
                return Err(format!("line {line}: unknown escape \\{}", other.map(String::from).unwrap_or_default()));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SKILL: &str = r#"---
name: enter-departure-location
id: 9
description: "Enter and confirm the \"departure\" city"
url_start: "https://www.google.com/travel/flights"
variables:
  departure_city:
    type: string
    default_value: "Edinburgh"   
    description: Name of the departure city # a comment
    action_index: 9
source:
  task_description: 'It''s a task'
---

# Enter Departure Location
"#;

    #[test]
    fn seed_front_matter_reads_as_nested_maps() {
        let (front, body) = split(SKILL).unwrap();
        assert!(body.starts_with("# Enter Departure Location"));
        let yaml = parse(front).unwrap();
        assert_eq!(yaml.str("name"), Some("enter-departure-location"));
        assert_eq!(yaml.str("id"), Some("9"));
        assert_eq!(yaml.str("description"), Some("Enter and confirm the \"departure\" city"));
        let city = yaml.get("variables").and_then(|v| v.get("departure_city")).unwrap();
        assert_eq!(city.str("default_value"), Some("Edinburgh"));
        assert_eq!(city.str("description"), Some("Name of the departure city"));
        assert_eq!(yaml.get("source").and_then(|s| s.str("task_description")), Some("It's a task"));
    }

    #[test]
    fn what_is_not_understood_is_an_error_with_its_line() {
        assert!(parse("a: 1\n  b: 2").unwrap_err().starts_with("line 2: unexpected indentation"));
        assert!(parse("a: [1, 2]").unwrap_err().contains("beyond plain and quoted"));
        assert!(parse("a:\n  - x").unwrap_err().contains("lists are not supported"));
        assert!(parse("a: \"open").unwrap_err().contains("not closed"));
        assert!(parse("a: 1\na: 2").unwrap_err().contains("given twice"));
        assert!(parse("just text").unwrap_err().contains("expected `key: value`"));
        assert_eq!(split("no front matter"), None);
    }
}
