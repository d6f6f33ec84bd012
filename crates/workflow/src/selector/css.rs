//! CSS selector validation: a tokenizer following CSS Syntax Level 3 feeds a recursive-descent
//! parser of Selectors Level 4 as Chromium implements it (`css_selector_parser.cc`).
//!
//! The parser builds nothing; it only walks the tokens the way Chromium would and stops at the
//! first construct Chromium rejects, explaining it in terms of what the user wrote.

mod pseudo;
mod tokenizer;

use super::{MAX_NESTING, SelectorError, quote};
use tokenizer::{Kind, Token, is_space, tokenize};

type Result<T = ()> = std::result::Result<T, SelectorError>;

/// Checks that `selector` is a CSS selector list that Chromium's document.querySelectorAll would accept.
pub fn validate_css(selector: &str) -> Result {
    let src: Vec<char> = selector.chars().collect();
    let lead = src.iter().take_while(|&&c| is_space(c)).count();
    if lead == src.len() {
        return Err(SelectorError::new(0, "empty selector"));
    }
    let head: String = src[lead..].iter().take(3).collect();
    let xpath_like = ["/", "./", "../", "(/"].iter().any(|p| head.starts_with(p)) && !head.starts_with("/*");
    if xpath_like {
        return Err(SelectorError::new(lead, "this looks like an XPath expression, not a CSS selector"));
    }
    let toks = tokenize(&src)?;
    let mut parser = Parser { src: &src, toks, pos: 0, depth: 0 };
    parser.skip_ws();
    // Playwright's engine prefixes (`text=Foo`, `css=a`, `role=button`) start with a name and '='.
    if let (Kind::Ident(name), Kind::Delim('=')) = (parser.kind(0), parser.kind(1)) {
        let name = name.to_ascii_lowercase();
        let advice = match name.as_str() {
            "text" => "use a text target instead",
            "xpath" => "use an xpath target instead",
            "css" => "remove the prefix",
            _ => "write a CSS selector instead",
        };
        let at = parser.peek().start;
        return Err(SelectorError::new(at, format!("'{name}=' is Playwright syntax, not CSS; {advice}")));
    }
    parser.list(Ctx { inside: None, relative: false, in_has: false })
}

/// Where a selector list is being parsed.
#[derive(Debug, Clone, Copy)]
struct Ctx {
    /// The functional pseudo-class whose argument this is (its display name and the token index of
    /// its opening function token), or `None` at the top level, the only place where
    /// pseudo-elements are allowed.
    inside: Option<(&'static str, usize)>,
    /// `:has()` arguments are relative selectors, which may start with a combinator.
    relative: bool,
    /// Chromium rejects `:has()` anywhere inside another `:has()`.
    in_has: bool,
}

impl Ctx {
    fn nested(self, name: &'static str, open: usize) -> Ctx {
        Ctx { inside: Some((name, open)), relative: false, in_has: self.in_has }
    }
}

/// What a compound selector turned out to hold.
enum Compound {
    Empty,
    Plain,
    /// Ends in a pseudo-element (its display name), so no further compound may follow.
    PseudoElement(String),
}

struct Parser<'a> {
    src: &'a [char],
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    /// The token `n` places ahead; past the end this is the final `Eof` token.
    fn tok(&self, n: usize) -> &Token {
        let last = self.toks.len().saturating_sub(1);
        &self.toks[(self.pos + n).min(last)]
    }
    fn peek(&self) -> &Token {
        self.tok(0)
    }
    fn kind(&self, n: usize) -> &Kind {
        &self.tok(n).kind
    }
    fn bump(&mut self) {
        if self.peek().kind != Kind::Eof {
            self.pos += 1;
        }
    }
    /// Skips whitespace tokens, telling whether there were any (a descendant combinator).
    fn skip_ws(&mut self) -> bool {
        let start = self.pos;
        while *self.kind(0) == Kind::Whitespace {
            self.pos += 1;
        }
        self.pos > start
    }
    fn describe(&self, t: &Token) -> String {
        match t.kind {
            Kind::Eof => "the end of the selector".into(),
            _ => quote(self.src, t.start, t.end),
        }
    }
    fn error(&self, t: &Token, message: impl Into<String>) -> SelectorError {
        SelectorError::new(t.start, message)
    }

    /// The error for input that ends while the block opened by token `open` is still open.
    fn unclosed(&self, open: usize) -> SelectorError {
        let t = &self.toks[open.min(self.toks.len().saturating_sub(1))];
        match t.kind {
            Kind::Open('[') => self.error(t, "unclosed '[' attribute selector: missing ']'"),
            Kind::Open('{') => self.error(t, "unclosed '{': missing '}'"),
            _ => self.error(t, format!("unbalanced parenthesis: {} is never closed", self.describe(t))),
        }
    }

    /// The error for token `t` appearing where it cannot.
    fn unexpected(&self, t: &Token, ctx: Ctx) -> SelectorError {
        let what = self.describe(t);
        let text = self.src.get(t.start..t.end).unwrap_or_default();
        match &t.kind {
            Kind::Eof => match ctx.inside {
                Some((_, open)) => self.unclosed(open),
                None => self.error(t, "unexpected end of the selector"),
            },
            Kind::Close(')') => self.error(t, "unbalanced parenthesis: ')' has no matching '('"),
            Kind::Close(']') => self.error(t, "unexpected ']' with no matching '['"),
            Kind::Open('{') | Kind::Close('}') => {
                self.error(t, format!("unexpected {what}: a selector cannot contain a declaration block"))
            }
            Kind::Str => {
                self.error(t, format!("unexpected string {what}: quotes belong in attribute values like [title=\"…\"]"))
            }
            Kind::Delim('=') => self.error(t, "unexpected '=' outside an attribute selector (write [name=value])"),
            Kind::Number { .. } | Kind::Dimension { .. } if text.first() == Some(&'.') => {
                self.error(t, format!("{what} is not a class selector: {}", escape_hint('.', &text[1..])))
            }
            _ => self.error(t, format!("unexpected {what}")),
        }
    }

    fn enter(&mut self, at: &Token) -> Result {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(self.error(at, format!("selector nested too deeply (more than {MAX_NESTING} levels)")));
        }
        Ok(())
    }

    /// A comma-separated list of complex selectors, up to the end (top level) or up to, but not
    /// including, the `)` that closes the argument.
    fn list(&mut self, ctx: Ctx) -> Result {
        let mut after_comma = false;
        loop {
            self.skip_ws();
            let t = self.peek().clone();
            match (&t.kind, ctx.inside) {
                (Kind::Comma, _) if after_comma => return Err(self.error(&t, "empty selector between two commas")),
                (Kind::Comma, _) => return Err(self.error(&t, "expected a selector before ','")),
                (Kind::Eof, None) if !after_comma => return Err(self.error(&t, "empty selector")),
                (Kind::Eof, None) | (Kind::Close(')'), Some(_)) if after_comma => {
                    return Err(self.error(&t, "expected a selector after ','"));
                }
                (Kind::Close(')'), Some((name, _))) => {
                    return Err(self.error(&t, format!("expected a selector inside '{name}'")));
                }
                _ => self.complex(ctx)?,
            }
            self.skip_ws();
            let t = self.peek().clone();
            match (&t.kind, ctx.inside) {
                (Kind::Comma, _) => after_comma = true,
                (Kind::Eof, None) | (Kind::Close(')'), Some(_)) => return Ok(()),
                _ => return Err(self.unexpected(&t, ctx)),
            }
            self.bump();
        }
    }

    /// Compound selectors joined by combinators.
    fn complex(&mut self, ctx: Ctx) -> Result {
        let mut combinator = None;
        if let Kind::Delim(c @ ('>' | '+' | '~')) = *self.kind(0) {
            let t = self.peek().clone();
            if !ctx.relative {
                return Err(self.error(
                    &t,
                    match ctx.inside {
                        None => format!("a selector cannot start with '{c}' (only ':has()' takes relative selectors)"),
                        Some((name, _)) => format!("a selector inside '{name}' cannot start with '{c}'"),
                    },
                ));
            }
            self.bump();
            self.skip_ws();
            combinator = Some(c);
        }
        loop {
            let pseudo_element = match self.compound(ctx)? {
                Compound::Empty => return Err(self.missing_compound(combinator, ctx)),
                Compound::Plain => None,
                Compound::PseudoElement(name) => Some(name),
            };
            let spaced = self.skip_ws();
            let t = self.peek().clone();
            combinator = match t.kind {
                Kind::Delim(c @ ('>' | '+' | '~')) => Some(c),
                _ if spaced && self.starts_compound() => None,
                _ => return Ok(()),
            };
            if let Some(pe) = pseudo_element {
                return Err(self.error(&t, format!("the pseudo-element '{pe}' must be in the last compound selector")));
            }
            if combinator == Some('>') && *self.kind(1) == Kind::Delim('>') {
                return Err(self.error(&t, "'>>' is Playwright syntax, not CSS; use a space or '>' between selectors"));
            }
            if combinator.is_some() {
                self.bump();
                self.skip_ws();
            }
        }
    }

    fn starts_compound(&self) -> bool {
        matches!(
            self.kind(0),
            Kind::Ident(_)
                | Kind::Hash { .. }
                | Kind::Colon
                | Kind::Open('[')
                | Kind::Delim('*' | '|' | '.' | '&' | '#')
        )
    }

    /// The error when no compound selector is found where one is required.
    fn missing_compound(&self, combinator: Option<char>, ctx: Ctx) -> SelectorError {
        let t = self.peek();
        match (combinator, &t.kind) {
            (Some(_), Kind::Eof) if ctx.inside.is_some() => self.unexpected(t, ctx),
            (Some(c), Kind::Eof | Kind::Comma | Kind::Close(')')) => {
                self.error(t, format!("expected a selector after '{c}'"))
            }
            (Some(c), Kind::Delim('>' | '+' | '~')) => {
                self.error(t, format!("expected a selector after '{c}', found {}", self.describe(t)))
            }
            _ => self.unexpected(t, ctx),
        }
    }

    /// A sequence of simple selectors with nothing between them: `a#b.c[d]:e::f`.
    fn compound(&mut self, ctx: Ctx) -> Result<Compound> {
        let mut any = self.type_selector()?;
        let mut pseudo_element: Option<String> = None;
        loop {
            let t = self.peek().clone();
            let simple = matches!(t.kind, Kind::Hash { .. } | Kind::Delim('.' | '&' | '#') | Kind::Open('['));
            if let (true, Some(pe)) = (simple, &pseudo_element) {
                let what = self.describe(&t);
                return Err(self.error(&t, format!("{what} cannot follow the pseudo-element '{pe}'")));
            }
            match t.kind {
                Kind::Hash { id: true } | Kind::Delim('&') => self.bump(),
                Kind::Hash { id: false } => {
                    let text = self.src.get(t.start + 1..t.end).unwrap_or_default();
                    let hint = escape_hint('#', text);
                    return Err(SelectorError::new(t.start + 1, format!("expected an identifier after '#': {hint}")));
                }
                Kind::Delim('#') => return Err(SelectorError::new(t.start + 1, "expected an identifier after '#'")),
                Kind::Delim('.') => {
                    self.bump();
                    if !matches!(self.kind(0), Kind::Ident(_)) {
                        return Err(SelectorError::new(t.end, "expected a class name after '.'"));
                    }
                    self.bump();
                }
                Kind::Open('[') => self.attribute()?,
                Kind::Colon => {
                    if let Some(name) = self.pseudo(ctx)? {
                        pseudo_element = Some(name);
                    }
                }
                Kind::Ident(_) | Kind::Delim('*') if any => {
                    let what = self.describe(&t);
                    let msg =
                        format!("the type selector {what} must come first in its compound selector (missing space?)");
                    return Err(self.error(&t, msg));
                }
                _ => break,
            }
            any = true;
        }
        Ok(match (any, pseudo_element) {
            (false, _) => Compound::Empty,
            (true, None) => Compound::Plain,
            (true, Some(name)) => Compound::PseudoElement(name),
        })
    }

    /// An optional type selector, possibly namespaced: `div`, `*`, `ns|div`, `*|*`, `|div`.
    /// Namespace prefixes are accepted although `querySelectorAll` has no way to declare them.
    fn type_selector(&mut self) -> Result<bool> {
        let name_like = |k: &Kind| matches!(k, Kind::Ident(_) | Kind::Delim('*'));
        let bar = |k: &Kind| *k == Kind::Delim('|');
        let bar_at = match (name_like(self.kind(0)), bar(self.kind(0)), bar(self.kind(1))) {
            // `ns|…` or `*|…`
            (true, _, true) => 1,
            (true, _, false) => {
                self.bump();
                return Ok(true);
            }
            // `|…`: elements in no namespace
            (false, true, _) => 0,
            (false, false, _) => return Ok(false),
        };
        let name = self.tok(bar_at + 1);
        if bar(&name.kind) {
            return Err(self.error(self.tok(bar_at), "'||' (the column combinator) is not supported"));
        }
        if !name_like(&name.kind) {
            return Err(self.error(name, "expected an element name or '*' after '|'"));
        }
        self.pos += bar_at + 2;
        Ok(true)
    }

    /// `[name]` or `[ns|name op value flag]`, with `op` one of `= ~= |= ^= $= *=`.
    fn attribute(&mut self) -> Result {
        let open = self.pos;
        self.bump();
        self.skip_ws();
        let name_like = matches!(self.kind(0), Kind::Ident(_) | Kind::Delim('*'));
        if name_like && *self.kind(1) == Kind::Delim('|') && matches!(self.kind(2), Kind::Ident(_)) {
            self.pos += 2;
        } else if *self.kind(0) == Kind::Delim('|') && matches!(self.kind(1), Kind::Ident(_)) {
            self.pos += 1;
        }
        let t = self.peek().clone();
        match t.kind {
            Kind::Ident(_) => self.bump(),
            Kind::Eof => return Err(self.unclosed(open)),
            Kind::Str => return Err(self.error(&t, "attribute names are not quoted: write [name=\"value\"]")),
            _ => return Err(self.error(&t, format!("expected an attribute name, found {}", self.describe(&t)))),
        }
        self.skip_ws();
        let t = self.peek().clone();
        match t.kind {
            Kind::Close(']') => {
                self.bump();
                return Ok(());
            }
            Kind::Delim('=') => self.bump(),
            // The operators are two delimiters in CSS Syntax 3; Chromium lexes them as one token,
            // so no space may separate the two characters.
            Kind::Delim(c @ ('~' | '|' | '^' | '$' | '*')) => {
                self.bump();
                if *self.kind(0) != Kind::Delim('=') {
                    return Err(
                        self.error(self.peek(), format!("expected '=' right after '{c}' (the operator is '{c}=')"))
                    );
                }
                self.bump();
            }
            Kind::Eof => return Err(self.unclosed(open)),
            _ => {
                let what = self.describe(&t);
                return Err(self.error(&t, format!("expected '=', an operator such as '^=', or ']', found {what}")));
            }
        }
        self.skip_ws();
        let t = self.peek().clone();
        let unquoted = match t.kind {
            Kind::Ident(_) => true,
            Kind::Str => false,
            Kind::Eof => return Err(self.unclosed(open)),
            Kind::Close(']') => return Err(self.error(&t, "expected a value after '=' (write \"\" for an empty one)")),
            _ => {
                let what = self.describe(&t);
                return Err(self.error(&t, format!("quote this attribute value: {what} cannot start a CSS identifier")));
            }
        };
        self.bump();
        self.skip_ws();
        let hint = if unquoted { "; quote the value if it contains spaces or symbols" } else { "" };
        if let Kind::Ident(flag) = self.kind(0) {
            let t = self.peek();
            if !flag.eq_ignore_ascii_case("i") && !flag.eq_ignore_ascii_case("s") {
                let what = self.describe(t);
                return Err(
                    self.error(t, format!("unexpected {what} (the only attribute flags are 'i' and 's'){hint}"))
                );
            }
            self.bump();
            self.skip_ws();
        }
        let t = self.peek().clone();
        match t.kind {
            Kind::Close(']') => {
                self.bump();
                Ok(())
            }
            Kind::Eof => Err(self.unclosed(open)),
            _ => Err(self
                .error(&t, format!("expected ']' to close the attribute selector, found {}{hint}", self.describe(&t)))),
        }
    }
}

/// Explains why `#123` or `.5` is no identifier and how to escape its leading digit.
fn escape_hint(sigil: char, text: &[char]) -> String {
    match text.split_first() {
        Some((d, rest)) if d.is_ascii_digit() => {
            let rest: String = rest.iter().collect();
            format!("a name cannot start with a digit unless escaped (write '{sigil}\\3{d} {rest}')")
        }
        _ => "a name cannot start with a digit, or with '-' and a digit, unless escaped".into(),
    }
}
