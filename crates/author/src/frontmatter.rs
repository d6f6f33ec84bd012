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

/// The file line on which the front matter `split` returns begins: the opening `---` is
/// line 1, and errors name lines as an editor shows them.
const FIRST_LINE: usize = 2;

/// Parses front matter (as `split` returns it) into a map; errors say which line of the
/// file and why.
pub fn parse(text: &str) -> Result<Yaml, String> {
    let mut lines: Vec<(usize, usize, &str)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + FIRST_LINE;
        let trimmed = raw.trim_end();
        let content = trimmed.trim_start();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let indentation = &trimmed[..trimmed.len() - content.len()];
        // A tab is no indentation in YAML: counting it as one space would nest the key
        // wrongly and blame a later line.
        if indentation.contains('\t') {
            return Err(format!("line {line}: indented with a tab (YAML indents with spaces only)"));
        }
        lines.push((line, indentation.len(), content));
    }
    let mut at = 0;
    let map = block(&lines, &mut at, 0, 0)?;
    match lines.get(at) {
        Some((line, _, _)) => Err(format!("line {line}: indented less than the line before it expects")),
        None => Ok(Yaml::Map(map)),
    }
}

/// How deep maps may nest. Seed 003 nests two levels (`variables:` › a variable › its
/// fields); each level is read by a call of its own, so a file nesting thousands of levels
/// (one more space a line) would overflow the stack and abort the program.
const MAX_NESTING: usize = 16;

/// The map whose keys sit at `indent`, from line `at` on, `depth` maps deep.
fn block(
    lines: &[(usize, usize, &str)],
    at: &mut usize,
    indent: usize,
    depth: usize,
) -> Result<IndexMap<String, Yaml>, String> {
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
        let (key, rest) = entry(content, line)?;
        let rest = rest.trim();
        *at += 1;
        let value = if rest.is_empty() || rest.starts_with('#') {
            match lines.get(*at) {
                Some(&(nested, deeper, _)) if deeper > indent => {
                    if depth + 1 >= MAX_NESTING {
                        return Err(format!(
                            "line {nested}: maps nested more than {MAX_NESTING} levels deep (a skill's front matter \
                             needs three)"
                        ));
                    }
                    Yaml::Map(block(lines, at, deeper, depth + 1)?)
                }
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

/// A `key: value` line's key and what follows its colon. A quoted key may hold `:`; a
/// plain one ends at the first `:` followed by a space or the line's end, as in YAML
/// (`url: http://host:80/` is the key `url`).
fn entry(content: &str, line: usize) -> Result<(String, &str), String> {
    let expected = || format!("line {line}: expected `key: value`");
    if content.starts_with(['"', '\'']) {
        let (key, after) = quoted(content, line)?;
        let rest = after.strip_prefix(':').filter(|r| r.is_empty() || r.starts_with([' ', '\t']));
        return rest.map(|rest| (key, rest)).ok_or_else(expected);
    }
    let colon = content
        .match_indices(':')
        .map(|(i, _)| i)
        .find(|&i| content[i + 1..].is_empty() || content[i + 1..].starts_with([' ', '\t']))
        .ok_or_else(expected)?;
    Ok((content[..colon].trim_end().to_owned(), &content[colon + 1..]))
}

/// A scalar: quoted (with YAML's escapes) or plain; either may be followed by a ` #` comment.
fn scalar(text: &str, line: usize) -> Result<String, String> {
    if text.starts_with(['"', '\'']) {
        let (value, after) = quoted(text, line)?;
        // Only a comment may follow, and a comment begins after a space.
        let rest = after.trim_start();
        let comment = rest.starts_with('#') && rest.len() < after.len();
        if !rest.is_empty() && !comment {
            return Err(format!("line {line}: `{rest}` after the quoted value is not YAML"));
        }
        return Ok(value);
    }
    if text.starts_with(['[', '{', '|', '>', '&', '*', '!']) {
        return Err(format!("line {line}: `{text}` uses YAML beyond plain and quoted values"));
    }
    let plain = text.split(" #").next().unwrap_or(text).trim();
    Ok(if plain == "null" || plain == "~" { String::new() } else { plain.to_owned() })
}

/// The quoted scalar `text` begins with, unescaped, and the text after its closing quote.
fn quoted(text: &str, line: usize) -> Result<(String, &str), String> {
    let unclosed = || format!("line {line}: the quoted value {text} is not closed");
    let quote = text.chars().next().filter(|c| matches!(c, '"' | '\'')).ok_or_else(unclosed)?;
    let body = &text[1..];
    let mut chars = body.char_indices();
    // Where the closing quote is: `''` is a quote inside single quotes, `\` escapes the
    // next character inside double ones.
    let close = loop {
        let (i, c) = chars.next().ok_or_else(unclosed)?;
        match c {
            '\\' if quote == '"' => {
                chars.next();
            }
            '\'' if quote == '\'' && body[i + 1..].starts_with('\'') => {
                chars.next();
            }
            c if c == quote => break i,
            _ => {}
        }
    };
    let (inner, after) = (&body[..close], &body[close + 1..]);
    let value = if quote == '\'' { inner.replace("''", "'") } else { unescape(inner, line)? };
    Ok((value, after))
}

/// A double-quoted scalar's content with its escapes resolved.
fn unescape(inner: &str, line: usize) -> Result<String, String> {
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
        assert!(parse("a: 1\n  b: 2").unwrap_err().starts_with("line 3: unexpected indentation"));
        assert!(parse("a: [1, 2]").unwrap_err().contains("beyond plain and quoted"));
        assert!(parse("a:\n  - x").unwrap_err().contains("lists are not supported"));
        assert!(parse("a: \"open").unwrap_err().contains("not closed"));
        assert!(parse("a: 1\na: 2").unwrap_err().contains("given twice"));
        assert!(parse("just text").unwrap_err().contains("expected `key: value`"));
        assert_eq!(split("no front matter"), None);
    }

    /// Each level one space deeper: 11,000 levels (60 MB, under the 64 MiB a skill file may
    /// be) overflowed the stack of `skills import` and aborted it.
    #[test]
    fn maps_nested_deeper_than_a_skill_needs_are_an_error_with_their_line() {
        let deep: String = (0..1000).map(|i| format!("{}k{i}:\n", " ".repeat(i))).collect();
        assert_eq!(
            parse(&deep).unwrap_err(),
            "line 18: maps nested more than 16 levels deep (a skill's front matter needs three)"
        );
        let fine: String = (0..16).map(|i| format!("{}k{i}:\n", " ".repeat(i))).collect();
        assert!(parse(&fine).is_ok());
    }

    /// Errors name the line of the SKILL.md file, whose line 1 is the opening `---`.
    #[test]
    fn errors_name_the_line_of_the_file() {
        let file = "---\nname: a\nname: b\n---\n";
        let (front, _) = split(file).unwrap();
        assert_eq!(parse(front).unwrap_err(), "line 3: `name` is given twice");

        let lines: Vec<String> = (2..10).map(|n| format!("k{n}: v")).collect();
        let file = format!("---\n{}\nvariables:\n\tsite: x\n  a: 1\n  b: 2\n  c: 3\n---\n", lines.join("\n"));
        let (front, _) = split(&file).unwrap();
        let error = parse(front).unwrap_err();
        assert!(error.starts_with("line 11: "), "the tab-indented key is on line 11: {error}");
        assert!(error.contains("tab"), "{error}");
    }

    #[test]
    fn a_comment_after_a_quoted_value_and_a_quoted_key_with_a_colon_are_yaml() {
        let yaml = parse("name: \"x\" # c\n'a: b': 'it''s' # d\n\"c:d\": 1\nurl: http://h:1/p\n").unwrap();
        assert_eq!(yaml.str("name"), Some("x"));
        assert_eq!(yaml.str("a: b"), Some("it's"));
        assert_eq!(yaml.str("c:d"), Some("1"));
        assert_eq!(yaml.str("url"), Some("http://h:1/p"));
        assert!(parse("name: \"x\" y").unwrap_err().contains("after the quoted value"));
        assert!(parse("\"a: 1").unwrap_err().contains("not closed"));
        assert!(parse("name: \"x\\\"").unwrap_err().contains("not closed"));
    }
}
