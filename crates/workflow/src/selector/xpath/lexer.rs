//! The XPath 1.0 lexer (§3.7). Besides splitting tokens it applies the spec's disambiguation
//! rules, which depend on the preceding token and on what follows a name: after a token that
//! ends an operand, `*` multiplies and a name must be `and`, `or`, `div` or `mod`; elsewhere a
//! name followed by `::` is an axis, one followed by `(` a node type or function, and any other
//! a name test.

use crate::selector::SelectorError;

type Result<T> = std::result::Result<T, SelectorError>;

const NODE_TYPES: &[&str] = &["comment", "node", "processing-instruction", "text"];

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Tok {
    LParen,
    RParen,
    LBracket,
    RBracket,
    Dot,
    DotDot,
    At,
    Comma,
    ColonColon,
    /// `*`, `prefix:*` or a QName in a node-test position.
    NameTest,
    /// `comment`, `text`, `processing-instruction` or `node` followed by `(`.
    NodeType,
    /// Any other QName followed by `(`.
    Function,
    /// An NCName followed by `::`.
    Axis,
    Literal,
    Number,
    Variable,
    Slash,
    DoubleSlash,
    Union,
    /// A binary operator: `+ - * = != < <= > >=`, `and`, `or`, `div`, `mod`.
    Binary,
    Eof,
}

#[derive(Debug, Clone)]
pub(super) struct Token {
    pub(super) tok: Tok,
    /// Character offset of the first character.
    pub(super) start: usize,
    /// Character offset just past the last character.
    pub(super) end: usize,
}

pub(super) fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

/// XML 1.0 (5th edition) NameStartChar, without ':' (XPath names are NCNames).
fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic()
        || c == '_'
        || matches!(c as u32, 0xC0..=0xD6 | 0xD8..=0xF6 | 0xF8..=0x2FF | 0x370..=0x37D | 0x37F..=0x1FFF
            | 0x200C..=0x200D | 0x2070..=0x218F | 0x2C00..=0x2FEF | 0x3001..=0xD7FF | 0xF900..=0xFDCF
            | 0xFDF0..=0xFFFD | 0x10000..=0xEFFFF)
}

fn is_name_char(c: char) -> bool {
    is_name_start(c)
        || c.is_ascii_digit()
        || matches!(c, '-' | '.' | '\u{B7}' | '\u{300}'..='\u{36F}' | '\u{203F}'..='\u{2040}')
}

/// Splits `src` into tokens; the last one is always [`Tok::Eof`].
pub(super) fn lex(src: &[char]) -> Result<Vec<Token>> {
    let at = |i: usize| src.get(i).copied();
    let skip_space = |mut i: usize| {
        while at(i).is_some_and(is_space) {
            i += 1;
        }
        i
    };
    let ncname_end = |mut i: usize| {
        while at(i).is_some_and(is_name_char) {
            i += 1;
        }
        i
    };
    let mut toks: Vec<Token> = Vec::new();
    let mut i = 0;
    loop {
        let start = skip_space(i);
        let Some(c) = at(start) else {
            toks.push(Token { tok: Tok::Eof, start: src.len(), end: src.len() });
            return Ok(toks);
        };
        // XPath 1.0 §3.7: after a token that ends an operand, `*` multiplies and a name must be
        // an operator name; everywhere else they are name tests.
        let after_operand = toks.last().is_some_and(|t| {
            !matches!(
                t.tok,
                Tok::At
                    | Tok::ColonColon
                    | Tok::LParen
                    | Tok::LBracket
                    | Tok::Comma
                    | Tok::Slash
                    | Tok::DoubleSlash
                    | Tok::Union
                    | Tok::Binary
            )
        });
        let next = at(start + 1);
        let (tok, end) = match c {
            '(' => (Tok::LParen, start + 1),
            ')' => (Tok::RParen, start + 1),
            '[' => (Tok::LBracket, start + 1),
            ']' => (Tok::RBracket, start + 1),
            ',' => (Tok::Comma, start + 1),
            '@' => (Tok::At, start + 1),
            '|' => (Tok::Union, start + 1),
            '/' if next == Some('/') => (Tok::DoubleSlash, start + 2),
            '/' => (Tok::Slash, start + 1),
            '=' if next == Some('=') => return Err(SelectorError::new(start, "'==' is not XPath; compare with '='")),
            '!' if next == Some('=') => (Tok::Binary, start + 2),
            '<' | '>' if next == Some('=') => (Tok::Binary, start + 2),
            '+' | '-' | '=' | '<' | '>' => (Tok::Binary, start + 1),
            '*' if after_operand => (Tok::Binary, start + 1),
            '*' => (Tok::NameTest, start + 1),
            ':' if next == Some(':') => (Tok::ColonColon, start + 2),
            '.' if next == Some('.') => (Tok::DotDot, start + 2),
            // Number ::= Digits ('.' Digits?)? | '.' Digits, so `3.` and `.5` are numbers.
            '0'..='9' => (Tok::Number, number_end(src, start)),
            '.' if next.is_some_and(|d| d.is_ascii_digit()) => (Tok::Number, number_end(src, start)),
            '.' => (Tok::Dot, start + 1),
            '"' | '\'' => match (start + 1..src.len()).find(|&j| at(j) == Some(c)) {
                Some(close) => (Tok::Literal, close + 1),
                None => {
                    return Err(SelectorError::new(
                        start,
                        format!("unterminated string literal: missing the closing {c}"),
                    ));
                }
            },
            '$' => match qname_end(src, start + 1) {
                Ok(Some(end)) => (Tok::Variable, end),
                Ok(None) => return Err(SelectorError::new(start + 1, "expected a variable name after '$'")),
                Err(e) => return Err(e),
            },
            _ if is_name_start(c) && after_operand => {
                let end = ncname_end(start);
                let name: String = src[start..end].iter().collect();
                if !matches!(name.as_str(), "and" | "or" | "div" | "mod") {
                    return Err(SelectorError::new(start, operator_expected(&name, toks.last(), start)));
                }
                (Tok::Binary, end)
            }
            _ if is_name_start(c) => {
                let local_end = ncname_end(start);
                let after = skip_space(local_end);
                if at(after) == Some(':') && at(after + 1) == Some(':') {
                    (Tok::Axis, local_end)
                } else if at(local_end) == Some(':') && at(local_end + 1) == Some('*') {
                    (Tok::NameTest, local_end + 2)
                } else {
                    let end = qname_end(src, start)?.unwrap_or(local_end);
                    let name: String = src[start..end].iter().collect();
                    match at(skip_space(end)) {
                        Some('(') if NODE_TYPES.contains(&name.as_str()) => (Tok::NodeType, end),
                        Some('(') => (Tok::Function, end),
                        _ => (Tok::NameTest, end),
                    }
                }
            }
            '&' => return Err(SelectorError::new(start, "unexpected '&': XPath writes 'and'")),
            '!' => return Err(SelectorError::new(start, "unexpected '!': XPath has '!=' and not(…), but no '!'")),
            '#' => return Err(SelectorError::new(start, "unexpected '#': this looks like a CSS selector, not XPath")),
            _ => return Err(SelectorError::new(start, format!("unexpected character '{c}'"))),
        };
        toks.push(Token { tok, start, end });
        i = end;
    }
}

/// The end of the number starting at `start` (a digit, or a '.' followed by one).
fn number_end(src: &[char], start: usize) -> usize {
    let digits = |mut i: usize| {
        while src.get(i).is_some_and(char::is_ascii_digit) {
            i += 1;
        }
        i
    };
    let end = digits(start);
    if src.get(end) == Some(&'.') { digits(end + 1) } else { end }
}

/// The end of the QName starting at `start`, `None` if no name starts there.
fn qname_end(src: &[char], start: usize) -> Result<Option<usize>> {
    let end = |mut i: usize| {
        while src.get(i).copied().is_some_and(is_name_char) {
            i += 1;
        }
        i
    };
    if !src.get(start).copied().is_some_and(is_name_start) {
        return Ok(None);
    }
    let prefix_end = end(start);
    if src.get(prefix_end) != Some(&':') || src.get(prefix_end + 1) == Some(&':') {
        return Ok(Some(prefix_end));
    }
    if !src.get(prefix_end + 1).copied().is_some_and(is_name_start) {
        let prefix: String = src[start..prefix_end].iter().collect();
        let msg = format!("expected a local name or '*' after '{prefix}:'");
        return Err(SelectorError::new(prefix_end + 1, msg));
    }
    Ok(Some(end(prefix_end + 1)))
}

/// The message for a name where the grammar needs an operator, as in `//a b`.
fn operator_expected(name: &str, prev: Option<&Token>, start: usize) -> String {
    let xpath2 = [("eq", "="), ("ne", "!="), ("lt", "<"), ("le", "<="), ("gt", ">"), ("ge", ">=")];
    if let Some((_, op)) = xpath2.iter().find(|(n, _)| *n == name) {
        return format!("'{name}' is XPath 2.0; XPath 1.0 writes '{op}'");
    }
    if prev.is_some_and(|p| p.tok == Tok::Dot && p.end == start) {
        return format!("unexpected '.{name}': this looks like a CSS class selector, not XPath");
    }
    format!("unexpected '{name}' where an operator ('and', 'or', '=', '|', …) was expected; steps are joined with '/'")
}
