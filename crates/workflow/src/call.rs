//! Parses CliGent action call strings such as
//! `click(by='css selector', selector='#go', percentage=0.5)` into a [`Call`].
//!
//! CliGent stored every action as a line of Python. Those lines are *data* to Statewright:
//! they come from files of unknown origin, so they are parsed by this small hand-written
//! parser and never handed to anything that evaluates code. The accepted language is the
//! subset of Python expression syntax that CliGent files actually use:
//!
//! * a call: a name (`click`, or a dotted name such as `self.click`, of which only the last
//!   segment is kept), `(`, arguments separated by commas with an optional trailing comma,
//!   `)`; surrounding whitespace and one trailing `;` are tolerated;
//! * arguments: positional `literal` or `keyword=literal`; as in Python, a positional
//!   argument may not follow a keyword argument and a keyword may not be repeated;
//! * literals only: strings (single, double or triple quotes; `r`/`u` prefixes; Python's
//!   escapes; adjacent literals are concatenated), integers (decimal, `0x`, `0o`, `0b`, `_`
//!   separators, 64-bit), floats (`1.5`, `.5`, `5.`, `1e3`), unary `+`/`-` on numbers,
//!   `True`, `False`, `None`, and tuples `( )` and lists `[ ]` of literals, nested up to
//!   [`MAX_DEPTH`] levels.
//!
//! Everything else (names used as values, operators, calls, attribute access, lambdas,
//! comprehensions, f-strings, dicts) is rejected with a message that says what was found,
//! because accepting it would mean either evaluating it or silently misreading it.
//!
//! All positions ([`Span`], [`CallError::offset`]) are *character* indices into the source
//! string, not byte offsets, because the caller maps them into a JSON string whose escapes
//! it resolves character by character.

use std::collections::HashSet;
use std::fmt;

mod number;
mod string;

use number::narrow;

/// How deeply tuples, lists, parentheses and unary signs may nest. Real actions need two
/// levels at most; the limit keeps the recursive parser's stack use bounded on any input.
pub const MAX_DEPTH: usize = 32;

/// A parsed action call: `name(args...)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The called name; for a dotted name such as `self.click`, the last segment (`click`).
    pub name: String,
    /// Where `name` sits in the source (the last segment only).
    pub name_span: Span,
    /// The arguments in source order.
    pub args: Vec<Arg>,
}

/// One argument of a [`Call`].
#[derive(Debug, Clone, PartialEq)]
pub struct Arg {
    /// `Some("selector")` for `selector='#a'`, `None` for a positional argument.
    pub keyword: Option<String>,
    /// The argument's value.
    pub value: Literal,
    /// The whole argument: from the keyword (or the value, if positional) to the value's end.
    pub span: Span,
    /// The value alone.
    pub value_span: Span,
}

/// A literal value, the only kind of value an action argument may have.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    None,
    Tuple(Vec<Literal>),
    List(Vec<Literal>),
}

impl Literal {
    /// The name of the literal's type, for messages like "`key` must be a string, not float".
    pub fn type_name(&self) -> &'static str {
        match self {
            Literal::Str(_) => "string",
            Literal::Int(_) => "integer",
            Literal::Float(_) => "float",
            Literal::Bool(_) => "boolean",
            Literal::None => "None",
            Literal::Tuple(_) => "tuple",
            Literal::List(_) => "list",
        }
    }
}

/// Character (not byte) offsets into the source string, end exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

/// Why a call string was rejected, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallError {
    /// Character index into the source string (may equal its length: "at the end").
    pub offset: usize,
    /// What was wrong, phrased for the author of the workflow file.
    pub message: String,
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at character {})", self.message, self.offset)
    }
}

impl std::error::Error for CallError {}

/// Parses one CliGent action call string. Never evaluates anything and never panics.
pub fn parse_call(src: &str) -> Result<Call, CallError> {
    Parser { s: src.chars().collect(), pos: 0, depth: 0 }.call()
}

fn err(offset: usize, message: impl Into<String>) -> CallError {
    CallError { offset, message: message.into() }
}

const ONLY_LITERALS: &str = "only literal values are allowed";
const VALUE_KINDS: &str = "a string, number, True, False, None, tuple or list";
/// Characters that start a Python operator; after a value they mean an expression.
const OPERATOR_CHARS: &str = "+-*/%@&|^<>=!~";

struct Parser {
    s: Vec<char>,
    pos: usize,
    depth: usize,
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

impl Parser {
    fn at(&self, pos: usize) -> Option<char> {
        self.s.get(pos).copied()
    }

    fn peek(&self) -> Option<char> {
        self.at(self.pos)
    }

    fn peek_at(&self, ahead: usize) -> Option<char> {
        self.at(self.pos.saturating_add(ahead))
    }

    /// Whitespace is any Unicode whitespace (Python only allows ASCII whitespace, but a
    /// pasted non-breaking space is no reason to reject an action).
    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    /// The position of the next non-whitespace character at or after `pos`.
    fn next_non_ws(&self, mut pos: usize) -> usize {
        while self.at(pos).is_some_and(char::is_whitespace) {
            pos += 1;
        }
        pos
    }

    /// Length of the identifier starting at `pos`; 0 if none starts there.
    fn ident_len_at(&self, pos: usize) -> usize {
        if !self.at(pos).is_some_and(is_ident_start) {
            return 0;
        }
        let mut end = pos + 1;
        while self.at(end).is_some_and(is_ident_char) {
            end += 1;
        }
        end - pos
    }

    fn text(&self, start: usize, len: usize) -> String {
        self.s.iter().skip(start).take(len).collect()
    }

    /// Describes the character at `pos` for an error message.
    fn found(&self, pos: usize) -> String {
        match self.at(pos) {
            None => "the end of the text".to_owned(),
            Some(c) if c == '\'' || c == '"' => "a string".to_owned(),
            Some(c) if c.is_whitespace() || c.is_control() => format!("`{}`", c.escape_debug()),
            Some(c) if is_ident_start(c) => format!("`{}`", self.text(pos, self.ident_len_at(pos))),
            Some(c) => format!("`{c}`"),
        }
    }

    fn enter(&mut self, at: usize) -> Result<(), CallError> {
        if self.depth >= MAX_DEPTH {
            return Err(err(at, format!("values are nested more than {MAX_DEPTH} levels deep")));
        }
        self.depth += 1;
        Ok(())
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    fn call(&mut self) -> Result<Call, CallError> {
        self.skip_ws();
        if self.peek().is_none() {
            return Err(err(self.pos, "empty action: expected a call like click(by='css selector', selector='#go')"));
        }
        let mut len = self.ident_len_at(self.pos);
        if len == 0 {
            return Err(err(self.pos, format!("expected the name of an action, found {}", self.found(self.pos))));
        }
        // Dotted names (`self.click`) are accepted for CliGent's sake; the last segment is
        // the action, the rest is an object CliGent called it on.
        let name_start = loop {
            let segment_start = self.pos;
            self.pos += len;
            let after = self.next_non_ws(self.pos);
            if self.at(after) != Some('.') {
                break segment_start;
            }
            self.pos = self.next_non_ws(after + 1);
            len = self.ident_len_at(self.pos);
            if len == 0 {
                return Err(err(self.pos, format!("expected a name after `.`, found {}", self.found(self.pos))));
            }
        };
        let name = self.text(name_start, len);
        let name_span = Span { start: name_start, end: name_start + len };
        self.skip_ws();
        let open = self.pos;
        if self.peek() != Some('(') {
            return Err(err(
                open,
                format!(
                    "expected '(' after the action name `{name}`, found {}; an action is a call like {name}(...)",
                    self.found(open)
                ),
            ));
        }
        self.pos += 1;
        let args = self.args(open)?;
        self.skip_ws();
        if self.peek() == Some(';') {
            self.pos += 1;
            self.skip_ws();
        }
        if self.peek().is_some() {
            return Err(err(
                self.pos,
                format!("unexpected {} after the end of the call; each action is a single call", self.found(self.pos)),
            ));
        }
        Ok(Call { name, name_span, args })
    }

    /// Parses the arguments after the call's `(` (at `open`) up to and including its `)`.
    fn args(&mut self, open: usize) -> Result<Vec<Arg>, CallError> {
        let unclosed = |pos: usize| err(pos, format!("expected ')' to close the call opened at character {open}"));
        let mut args: Vec<Arg> = Vec::new();
        // A set rather than a scan of `args`, so that absurdly long inputs stay linear.
        let mut keywords: HashSet<String> = HashSet::new();
        loop {
            self.skip_ws();
            match self.peek() {
                None => return Err(unclosed(self.pos)),
                Some(')') => {
                    self.pos += 1;
                    return Ok(args);
                }
                Some(',') => return Err(err(self.pos, "expected an argument or ')', found `,`")),
                Some(_) => {}
            }
            let arg = self.arg()?;
            match &arg.keyword {
                Some(k) if !keywords.insert(k.clone()) => {
                    return Err(err(arg.span.start, format!("duplicate keyword argument '{k}'")));
                }
                None if !keywords.is_empty() => {
                    return Err(err(
                        arg.span.start,
                        "positional argument after keyword argument; once an argument is named, the rest must be named too",
                    ));
                }
                _ => {}
            }
            args.push(arg);
            self.skip_ws();
            match self.peek() {
                None => return Err(unclosed(self.pos)),
                Some(',') => self.pos += 1,
                Some(')') => {
                    self.pos += 1;
                    return Ok(args);
                }
                Some(_) => return Err(self.after_value_error(')', "argument")),
            }
        }
    }

    fn arg(&mut self) -> Result<Arg, CallError> {
        let start = self.pos;
        let mut keyword = None;
        let len = self.ident_len_at(start);
        if len > 0 {
            let eq = self.next_non_ws(start + len);
            if self.at(eq) == Some('=') && self.at(eq + 1) != Some('=') {
                let word = self.text(start, len);
                if matches!(word.as_str(), "True" | "False" | "None") {
                    return Err(err(start, format!("`{word}` cannot be used as a keyword")));
                }
                self.pos = self.next_non_ws(eq + 1);
                if matches!(self.peek(), None | Some(',') | Some(')')) {
                    return Err(err(
                        self.pos,
                        format!("expected a value after `{word}=`, found {}", self.found(self.pos)),
                    ));
                }
                keyword = Some(word);
            }
        }
        let value_start = self.pos;
        let value = self.value()?;
        let end = self.pos;
        Ok(Arg { keyword, value, span: Span { start, end }, value_span: Span { start: value_start, end } })
    }

    /// Parses one literal starting exactly at the current position; stops right after it
    /// (trailing whitespace is left alone so that spans end at the value).
    fn value(&mut self) -> Result<Literal, CallError> {
        let start = self.pos;
        let Some(c) = self.peek() else {
            return Err(err(start, format!("expected a value ({VALUE_KINDS}), found the end of the text")));
        };
        match c {
            '\'' | '"' => self.strings(),
            '0'..='9' => {
                let n = self.number()?;
                narrow(n, start)
            }
            '.' if self.peek_at(1).is_some_and(|d| d.is_ascii_digit()) => {
                let n = self.number()?;
                narrow(n, start)
            }
            '-' | '+' => {
                let n = self.signed()?;
                narrow(n, start)
            }
            '(' => self.tuple_or_group(),
            '[' => {
                self.enter(start)?;
                self.pos += 1;
                let mut items = Vec::new();
                self.items(start, ']', "list", &mut items)?;
                self.leave();
                Ok(Literal::List(items))
            }
            '{' => Err(err(start, format!("dictionaries and sets are not supported; use {VALUE_KINDS}"))),
            '*' => Err(err(start, format!("{ONLY_LITERALS}; found `*` unpacking"))),
            c if is_ident_start(c) => {
                if self.string_prefix_at(start).is_some() {
                    return self.strings();
                }
                let len = self.ident_len_at(start);
                let word = self.text(start, len);
                let literal = match word.as_str() {
                    "True" => Literal::Bool(true),
                    "False" => Literal::Bool(false),
                    "None" => Literal::None,
                    _ => return Err(self.name_error(start, &word)),
                };
                self.pos += len;
                Ok(literal)
            }
            c if OPERATOR_CHARS.contains(c) => Err(err(start, format!("{ONLY_LITERALS}; found the operator `{c}`"))),
            _ => Err(err(start, format!("expected a value ({VALUE_KINDS}), found {}", self.found(start)))),
        }
    }

    /// The error for a name where a value should be: says what the name seems to start.
    fn name_error(&self, start: usize, word: &str) -> CallError {
        let next = self.next_non_ws(start + word.chars().count());
        let what = match word {
            "lambda" => "found a lambda expression".to_owned(),
            "not" | "await" | "yield" => format!("found the keyword `{word}`"),
            "true" => "found the name `true` (Python spells it True)".to_owned(),
            "false" => "found the name `false` (Python spells it False)".to_owned(),
            "none" | "null" => format!("found the name `{word}` (Python spells it None)"),
            _ if self.at(next) == Some('(') => format!("found a call to `{word}(...)`"),
            _ if self.at(next) == Some('.') => {
                let attr_start = self.next_non_ws(next + 1);
                let attr = self.text(attr_start, self.ident_len_at(attr_start));
                format!("found the attribute access `{word}.{attr}`")
            }
            _ => format!("found the name `{word}`; if it is meant as text, quote it: '{word}'"),
        };
        err(start, format!("{ONLY_LITERALS}; {what}"))
    }

    /// The error for whatever follows a complete value inside a call, tuple or list when it
    /// is neither `,` nor `close`: usually the rest of an expression, else a missing comma.
    fn after_value_error(&self, close: char, what: &str) -> CallError {
        let p = self.pos;
        let Some(c) = self.at(p) else {
            return err(p, format!("expected ',' or '{close}' after the {what}, found the end of the text"));
        };
        let missing_comma = |found: &str| {
            err(p, format!("expected ',' or '{close}' after the {what}, found {found}; is a comma missing?"))
        };
        if OPERATOR_CHARS.contains(c) || (c == ':' && self.at(p + 1) == Some('=')) {
            let op: String =
                self.s.iter().skip(p).take(3).take_while(|&&o| OPERATOR_CHARS.contains(o) || o == ':').collect();
            if op == "=" {
                return err(p, "`=` must follow a keyword name, as in by='xpath'");
            }
            return err(p, format!("{ONLY_LITERALS}; found the operator `{op}`"));
        }
        match c {
            '.' => {
                let attr = self.text(p + 1, self.ident_len_at(p + 1));
                err(p, format!("{ONLY_LITERALS}; found the attribute access `.{attr}`"))
            }
            '(' => err(p, format!("{ONLY_LITERALS}; found a call")),
            '[' => err(p, format!("{ONLY_LITERALS}; found indexing or slicing with `[`")),
            '\'' | '"' => missing_comma("a string"),
            '0'..='9' => missing_comma("a number"),
            c if is_ident_start(c) => {
                let word = self.text(p, self.ident_len_at(p));
                match word.as_str() {
                    "if" | "else" => err(p, format!("{ONLY_LITERALS}; found a conditional expression (`{word}`)")),
                    "for" | "async" => err(p, format!("{ONLY_LITERALS}; found a comprehension (`{word}`)")),
                    "and" | "or" | "not" | "in" | "is" => {
                        err(p, format!("{ONLY_LITERALS}; found the operator `{word}`"))
                    }
                    _ => missing_comma(&format!("`{word}`")),
                }
            }
            _ => err(p, format!("expected ',' or '{close}' after the {what}, found {}", self.found(p))),
        }
    }

    /// Parses `( )`: the empty tuple, a parenthesised value `(x)` (which is just `x`, as in
    /// Python), or a tuple `(x,)` / `(x, y)`.
    fn tuple_or_group(&mut self) -> Result<Literal, CallError> {
        let open = self.pos;
        self.enter(open)?;
        self.pos += 1;
        self.skip_ws();
        if self.peek() == Some(')') {
            self.pos += 1;
            self.leave();
            return Ok(Literal::Tuple(Vec::new()));
        }
        if self.peek() == Some(',') {
            return Err(err(self.pos, "expected a value or ')', found `,`"));
        }
        let first = self.value()?;
        self.skip_ws();
        let result = match self.peek() {
            Some(')') => {
                self.pos += 1;
                first
            }
            Some(',') => {
                self.pos += 1;
                let mut items = vec![first];
                self.items(open, ')', "tuple", &mut items)?;
                Literal::Tuple(items)
            }
            None => {
                return Err(err(self.pos, format!("expected ')' to close the parenthesis opened at character {open}")));
            }
            Some(_) => return Err(self.after_value_error(')', "item")),
        };
        self.leave();
        Ok(result)
    }

    /// Parses comma-separated items up to and including `close`; the opening bracket (at
    /// `open`) has been consumed, and so has any comma right before the current position.
    fn items(&mut self, open: usize, close: char, what: &str, items: &mut Vec<Literal>) -> Result<(), CallError> {
        let unclosed =
            |pos: usize| err(pos, format!("expected '{close}' to close the {what} opened at character {open}"));
        loop {
            self.skip_ws();
            match self.peek() {
                None => return Err(unclosed(self.pos)),
                Some(c) if c == close => {
                    self.pos += 1;
                    return Ok(());
                }
                Some(',') => {
                    return Err(err(self.pos, format!("expected a value or '{close}', found `,`")));
                }
                Some(_) => {}
            }
            items.push(self.value()?);
            self.skip_ws();
            match self.peek() {
                None => return Err(unclosed(self.pos)),
                Some(',') => self.pos += 1,
                Some(c) if c == close => {
                    self.pos += 1;
                    return Ok(());
                }
                Some(_) => return Err(self.after_value_error(close, "item")),
            }
        }
    }
}

#[cfg(test)]
mod tests;
