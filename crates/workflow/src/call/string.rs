//! String literals: quotes, prefixes, Python's escapes, adjacent literals joined.

use super::{CallError, Literal, Parser, err};

impl Parser {
    /// If a string literal starts at `pos`, the length of its prefix (0 for a bare quote).
    /// Any short run of prefix letters before a quote counts, so that invalid prefixes
    /// (`f`, `b`, `ur`) get a message about strings rather than about names.
    pub(super) fn string_prefix_at(&self, pos: usize) -> Option<usize> {
        let quote_at = |p: usize| matches!(self.at(p), Some('\'' | '"'));
        if quote_at(pos) {
            return Some(0);
        }
        let len = self.ident_len_at(pos);
        let letters = (0..len).all(|i| self.at(pos + i).is_some_and(|c| "rRbBuUfFtT".contains(c)));
        (len > 0 && len <= 2 && letters && quote_at(pos + len)).then_some(len)
    }

    /// Parses one or more adjacent string literals and concatenates them, as Python does.
    pub(super) fn strings(&mut self) -> Result<Literal, CallError> {
        let mut out = String::new();
        loop {
            self.one_string(&mut out)?;
            let end = self.pos;
            self.skip_ws();
            if self.string_prefix_at(self.pos).is_none() {
                self.pos = end;
                return Ok(Literal::Str(out));
            }
        }
    }

    fn one_string(&mut self, out: &mut String) -> Result<(), CallError> {
        let start = self.pos;
        let prefix_len = self.string_prefix_at(start).unwrap_or(0);
        let prefix = self.text(start, prefix_len).to_lowercase();
        let raw = match prefix.as_str() {
            "" | "u" => false,
            "r" => true,
            p if p.contains('f') => {
                return Err(err(start, "f-strings are code, not data: use a plain string ('{{name}}' for parameters)"));
            }
            p if p.contains('t') => {
                return Err(err(start, "t-strings are code, not data: use a plain string"));
            }
            p if p.contains('b') => {
                return Err(err(start, "bytes literals (b'...') are not supported: use a plain string"));
            }
            p => return Err(err(start, format!("invalid string prefix `{p}`"))),
        };
        self.pos += prefix_len;
        let Some(quote) = self.peek() else {
            return Err(err(start, "expected a string"));
        };
        let triple = self.peek_at(1) == Some(quote) && self.peek_at(2) == Some(quote);
        self.pos += if triple { 3 } else { 1 };
        let unterminated = || {
            let kind = if triple { "triple-quoted string" } else { "string" };
            err(start, format!("unterminated {kind} starting at character {start}"))
        };
        loop {
            let Some(c) = self.peek() else {
                return Err(unterminated());
            };
            if c == quote {
                if !triple {
                    self.pos += 1;
                    return Ok(());
                }
                if self.peek_at(1) == Some(quote) && self.peek_at(2) == Some(quote) {
                    self.pos += 3;
                    return Ok(());
                }
                out.push(c);
                self.pos += 1;
            } else if (c == '\n' || c == '\r') && !triple {
                return Err(err(
                    start,
                    format!(
                        "unterminated string starting at character {start}: a line break ends it; use \\n or a triple-quoted string"
                    ),
                ));
            } else if c == '\\' && raw {
                // In a raw string the backslash stays and the next character, even a
                // quote, is taken literally; either way neither ends the string.
                out.push(c);
                self.pos += 1;
                let Some(next) = self.peek() else {
                    return Err(unterminated());
                };
                out.push(next);
                self.pos += 1;
            } else if c == '\\' {
                if !self.escape(out)? {
                    return Err(unterminated());
                }
            } else {
                out.push(c);
                self.pos += 1;
            }
        }
    }

    /// Decodes the escape sequence at the current backslash into `out`, with Python's
    /// meaning. Returns `Ok(false)` if the text ends right after the backslash.
    fn escape(&mut self, out: &mut String) -> Result<bool, CallError> {
        let backslash = self.pos;
        self.pos += 1;
        let Some(c) = self.peek() else {
            return Ok(false);
        };
        self.pos += 1;
        match c {
            // A backslash before a line break continues the line: both disappear.
            '\n' => {}
            '\r' => {
                if self.peek() == Some('\n') {
                    self.pos += 1;
                }
            }
            '\\' | '\'' | '"' => out.push(c),
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            'f' => out.push('\x0c'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'v' => out.push('\x0b'),
            '0'..='7' => {
                let mut value = c.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match self.peek().and_then(|d| d.to_digit(8)) {
                        Some(d) => {
                            value = value * 8 + d;
                            self.pos += 1;
                        }
                        None => break,
                    }
                }
                // At most 0o777, always a valid character.
                out.push(char::from_u32(value).unwrap_or(char::REPLACEMENT_CHARACTER));
            }
            'x' => out.push(self.hex_escape(backslash, 'x', 2)?),
            'u' => out.push(self.hex_escape(backslash, 'u', 4)?),
            'U' => out.push(self.hex_escape(backslash, 'U', 8)?),
            'N' => {
                return Err(err(
                    backslash,
                    "named escapes like \\N{...} are not supported: write the character itself or use \\uXXXX",
                ));
            }
            // Python keeps unknown escapes such as `\d` as they are; so do we.
            other => {
                out.push('\\');
                out.push(other);
            }
        }
        Ok(true)
    }

    fn hex_escape(&mut self, backslash: usize, letter: char, digits: usize) -> Result<char, CallError> {
        let mut value: u32 = 0;
        for _ in 0..digits {
            let Some(d) = self.peek().and_then(|d| d.to_digit(16)) else {
                return Err(err(
                    backslash,
                    format!("truncated \\{letter} escape: expected {digits} hexadecimal digits"),
                ));
            };
            value = value * 16 + d;
            self.pos += 1;
        }
        char::from_u32(value).ok_or_else(|| {
            let what = if (0xD800..=0xDFFF).contains(&value) {
                "a lone surrogate, which a string cannot hold"
            } else {
                "not a Unicode character"
            };
            err(backslash, format!("\\{letter}{value:0digits$x} is {what}"))
        })
    }
}
