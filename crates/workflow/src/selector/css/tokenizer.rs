//! The CSS Syntax Level 3 tokenizer (§4), working on characters so that every token position is
//! a character offset. Comments vanish; the only fatal problems are unterminated and broken
//! strings, everything else is left for the selector parser to judge.

use crate::selector::SelectorError;

type Result<T> = std::result::Result<T, SelectorError>;

/// Splits `src` into tokens; the last one is always [`Kind::Eof`].
pub(super) fn tokenize(src: &[char]) -> Result<Vec<Token>> {
    Tokenizer { s: src, pos: 0 }.run()
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Kind {
    /// An identifier with escapes resolved.
    Ident(String),
    /// A name immediately followed by `(`, which the token includes.
    Function(String),
    AtKeyword,
    Hash {
        /// The name would start an identifier, so `#name` is an ID selector (`#123` is not).
        id: bool,
    },
    Str,
    Number {
        integer: bool,
        /// Written with an explicit `+` or `-`, which An+B cares about.
        signed: bool,
    },
    Dimension {
        integer: bool,
        /// The unit with escapes resolved; in An+B it holds the `n` (`2n-1` has unit `n-1`).
        unit: String,
    },
    Percentage,
    Whitespace,
    Colon,
    Semicolon,
    Comma,
    /// `(`, `[` or `{`.
    Open(char),
    /// `)`, `]` or `}`.
    Close(char),
    Cdo,
    Cdc,
    Delim(char),
    Eof,
}

#[derive(Debug, Clone)]
pub(super) struct Token {
    pub(super) kind: Kind,
    /// Character offset of the first character.
    pub(super) start: usize,
    /// Character offset just past the last character.
    pub(super) end: usize,
}

pub(super) fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0C')
}
fn is_newline(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\x0C')
}
fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || !c.is_ascii()
}
fn is_name_char(c: char) -> bool {
    is_name_start(c) || c.is_ascii_digit() || c == '-'
}

struct Tokenizer<'a> {
    s: &'a [char],
    pos: usize,
}

impl Tokenizer<'_> {
    fn at(&self, i: usize) -> Option<char> {
        self.s.get(i).copied()
    }
    fn valid_escape(&self, i: usize) -> bool {
        self.at(i) == Some('\\') && !self.at(i + 1).is_some_and(is_newline)
    }
    fn starts_ident(&self, i: usize) -> bool {
        match self.at(i) {
            Some('-') => self.at(i + 1).is_some_and(|c| c == '-' || is_name_start(c)) || self.valid_escape(i + 1),
            Some('\\') => self.valid_escape(i),
            Some(c) => is_name_start(c),
            None => false,
        }
    }
    fn starts_number(&self, i: usize) -> bool {
        let digit = |j: usize| self.at(j).is_some_and(|c| c.is_ascii_digit());
        match self.at(i) {
            Some('+' | '-') => digit(i + 1) || (self.at(i + 1) == Some('.') && digit(i + 2)),
            Some('.') => digit(i + 1),
            _ => digit(i),
        }
    }

    fn run(mut self) -> Result<Vec<Token>> {
        let mut toks = Vec::new();
        loop {
            while self.at(self.pos) == Some('/') && self.at(self.pos + 1) == Some('*') {
                // An unterminated comment runs to the end, as in a style sheet.
                let close =
                    (self.pos + 2..self.s.len()).find(|&i| self.at(i) == Some('*') && self.at(i + 1) == Some('/'));
                self.pos = close.map_or(self.s.len(), |i| i + 2);
            }
            let start = self.pos;
            let kind = self.token()?;
            toks.push(Token { kind: kind.clone(), start, end: self.pos });
            if kind == Kind::Eof {
                return Ok(toks);
            }
        }
    }

    fn token(&mut self) -> Result<Kind> {
        let start = self.pos;
        let Some(c) = self.at(start) else { return Ok(Kind::Eof) };
        let next_is = |s: &str| s.chars().enumerate().all(|(k, x)| self.at(start + 1 + k) == Some(x));
        let kind = match c {
            _ if is_space(c) => {
                while self.at(self.pos).is_some_and(is_space) {
                    self.pos += 1;
                }
                return Ok(Kind::Whitespace);
            }
            '"' | '\'' => return self.string(c),
            '#' if self.at(start + 1).is_some_and(is_name_char) || self.valid_escape(start + 1) => {
                self.pos += 1;
                let id = self.starts_ident(self.pos);
                self.ident_sequence();
                return Ok(Kind::Hash { id });
            }
            '(' | '[' | '{' => Kind::Open(c),
            ')' | ']' | '}' => Kind::Close(c),
            ',' => Kind::Comma,
            ':' => Kind::Colon,
            ';' => Kind::Semicolon,
            '+' | '-' | '.' if self.starts_number(start) => return Ok(self.numeric()),
            '-' if next_is("->") => {
                self.pos += 3;
                return Ok(Kind::Cdc);
            }
            '<' if next_is("!--") => {
                self.pos += 4;
                return Ok(Kind::Cdo);
            }
            '@' if self.starts_ident(start + 1) => {
                self.pos += 1;
                self.ident_sequence();
                return Ok(Kind::AtKeyword);
            }
            _ if c.is_ascii_digit() => return Ok(self.numeric()),
            _ if self.starts_ident(start) => {
                // `url(` is deliberately not special: a URL token can never be part of a selector.
                let name = self.ident_sequence();
                if self.at(self.pos) == Some('(') {
                    self.pos += 1;
                    return Ok(Kind::Function(name));
                }
                return Ok(Kind::Ident(name));
            }
            _ => Kind::Delim(c),
        };
        self.pos += 1;
        Ok(kind)
    }

    fn string(&mut self, quote: char) -> Result<Kind> {
        let start = self.pos;
        self.pos += 1;
        loop {
            match self.at(self.pos) {
                None => return Err(SelectorError::new(start, format!("unclosed string: missing the closing {quote}"))),
                Some(c) if c == quote => {
                    self.pos += 1;
                    return Ok(Kind::Str);
                }
                Some(c) if is_newline(c) => {
                    return Err(SelectorError::new(
                        self.pos,
                        "a string cannot contain a line break (write \\A instead)",
                    ));
                }
                Some('\\') => {
                    self.pos += 1;
                    match self.at(self.pos) {
                        None => {}
                        // An escaped line break continues the string on the next line.
                        Some('\r') if self.at(self.pos + 1) == Some('\n') => self.pos += 2,
                        Some(c) if is_newline(c) => self.pos += 1,
                        Some(_) => {
                            self.escape();
                        }
                    }
                }
                Some(_) => self.pos += 1,
            }
        }
    }

    /// Consumes the escape after a backslash and returns the character it stands for, so that
    /// `:hov\65r` is recognised as `:hover`, as Chromium does.
    fn escape(&mut self) -> char {
        let Some(c) = self.at(self.pos) else { return '\u{FFFD}' };
        if !c.is_ascii_hexdigit() {
            self.pos += 1;
            return c;
        }
        let mut value = 0;
        for _ in 0..6 {
            let Some(d) = self.at(self.pos).and_then(|c| c.to_digit(16)) else { break };
            value = value * 16 + d;
            self.pos += 1;
        }
        // One whitespace after a hex escape belongs to it: `#\31 23` is the ID "123".
        match self.at(self.pos) {
            Some('\r') if self.at(self.pos + 1) == Some('\n') => self.pos += 2,
            Some(c) if is_space(c) => self.pos += 1,
            _ => {}
        }
        char::from_u32(value).filter(|&c| c != '\0').unwrap_or('\u{FFFD}')
    }

    fn ident_sequence(&mut self) -> String {
        let mut out = String::new();
        loop {
            match self.at(self.pos) {
                Some(c) if is_name_char(c) => {
                    out.push(c);
                    self.pos += 1;
                }
                Some('\\') if self.valid_escape(self.pos) => {
                    self.pos += 1;
                    out.push(self.escape());
                }
                _ => return out,
            }
        }
    }

    fn numeric(&mut self) -> Kind {
        let digits = |t: &mut Self| {
            while t.at(t.pos).is_some_and(|c| c.is_ascii_digit()) {
                t.pos += 1;
            }
        };
        let signed = matches!(self.at(self.pos), Some('+' | '-'));
        self.pos += usize::from(signed);
        digits(self);
        let mut integer = true;
        if self.at(self.pos) == Some('.') && self.at(self.pos + 1).is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
            digits(self);
            integer = false;
        }
        if matches!(self.at(self.pos), Some('e' | 'E')) {
            let sign = usize::from(matches!(self.at(self.pos + 1), Some('+' | '-')));
            if self.at(self.pos + 1 + sign).is_some_and(|c| c.is_ascii_digit()) {
                self.pos += 1 + sign;
                digits(self);
                integer = false;
            }
        }
        if self.starts_ident(self.pos) {
            Kind::Dimension { integer, unit: self.ident_sequence() }
        } else if self.at(self.pos) == Some('%') {
            self.pos += 1;
            Kind::Percentage
        } else {
            Kind::Number { integer, signed }
        }
    }
}
