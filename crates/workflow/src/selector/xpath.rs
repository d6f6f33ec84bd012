//! XPath 1.0 validation: a recursive-descent parser of the whole expression grammar (§2–§3) over
//! the tokens of the [`lexer`].
//!
//! Function names and arities are not checked: any QName followed by `(` is a function call.

mod lexer;

use super::{MAX_NESTING, SelectorError, quote, suggest};
use lexer::{Tok, Token, is_space, lex};

type Result<T = ()> = std::result::Result<T, SelectorError>;

#[rustfmt::skip]
const AXES: &[&str] = &[
    "ancestor", "ancestor-or-self", "attribute", "child", "descendant", "descendant-or-self", "following",
    "following-sibling", "namespace", "parent", "preceding", "preceding-sibling", "self",
];

/// Checks that `expr` is a syntactically valid XPath 1.0 expression (as document.evaluate accepts).
pub fn validate_xpath(expr: &str) -> Result {
    let src: Vec<char> = expr.chars().collect();
    let lead = src.iter().take_while(|&&c| is_space(c)).count();
    if lead == src.len() {
        return Err(SelectorError::new(0, "empty expression"));
    }
    // `xpath=//a` parses (as `child::xpath = //a`) but is a boolean, never an element.
    if src[lead..].starts_with(&['x', 'p', 'a', 't', 'h', '=']) {
        return Err(SelectorError::new(lead, "'xpath=' is Playwright syntax; remove the prefix"));
    }
    let toks = lex(&src)?;
    let mut parser = Parser { src: &src, toks, pos: 0, depth: 0 };
    parser.expr()?;
    let t = parser.peek();
    match t.tok {
        Tok::Eof => Ok(()),
        Tok::RParen => Err(parser.error(t, "unbalanced parenthesis: ')' has no matching '('")),
        Tok::RBracket => Err(parser.error(t, "unexpected ']' with no matching '['")),
        Tok::Comma => Err(parser.error(t, "unexpected ',': XPath joins alternatives with '|'")),
        _ => Err(parser.error(t, format!("unexpected {}", parser.describe(t)))),
    }
}

struct Parser<'a> {
    src: &'a [char],
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    /// The current token; past the end this is the final `Eof` token.
    fn peek(&self) -> &Token {
        &self.toks[self.pos.min(self.toks.len().saturating_sub(1))]
    }
    fn prev(&self) -> Option<&Token> {
        self.pos.checked_sub(1).and_then(|i| self.toks.get(i))
    }
    fn bump(&mut self) {
        if self.peek().tok != Tok::Eof {
            self.pos += 1;
        }
    }
    fn text(&self, t: &Token) -> String {
        self.src.get(t.start..t.end).unwrap_or_default().iter().collect()
    }
    fn describe(&self, t: &Token) -> String {
        match t.tok {
            Tok::Eof => "the end of the expression".into(),
            _ => quote(self.src, t.start, t.end),
        }
    }
    fn error(&self, t: &Token, message: impl Into<String>) -> SelectorError {
        SelectorError::new(t.start, message)
    }

    /// The error for input that ends while the bracket at token index `open` is still open.
    fn unclosed(&self, open: usize) -> SelectorError {
        match self.toks.get(open) {
            Some(t) if t.tok == Tok::LBracket => self.error(t, "unclosed '[' predicate: missing ']'"),
            Some(t) => self.error(t, "unbalanced parenthesis: '(' is never closed"),
            None => SelectorError::new(self.src.len(), "unexpected end of the expression"),
        }
    }

    /// Expects the `]` or `)` matching the bracket at token index `open`.
    fn close(&mut self, open: usize, want: Tok) -> Result {
        let t = self.peek();
        if t.tok == want {
            self.bump();
            return Ok(());
        }
        if t.tok == Tok::Eof {
            return Err(self.unclosed(open));
        }
        let (closer, what) = if want == Tok::RBracket { (']', "predicate") } else { (')', "parenthesis") };
        Err(self.error(t, format!("expected '{closer}' to close the {what}, found {}", self.describe(t))))
    }

    /// The error when an operand (a path, literal, number, call …) is missing.
    fn missing_operand(&self) -> SelectorError {
        let t = self.peek();
        let Some(prev) = self.prev() else {
            return match t.tok {
                Tok::RParen => self.error(t, "unbalanced parenthesis: ')' has no matching '('"),
                Tok::RBracket => self.error(t, "unexpected ']' with no matching '['"),
                _ => self.error(t, format!("unexpected {} at the start of the expression", self.describe(t))),
            };
        };
        match t.tok {
            Tok::Eof if matches!(prev.tok, Tok::LBracket | Tok::LParen) => self.unclosed(self.pos - 1),
            Tok::Eof => self.error(t, format!("expected an expression after {}", self.describe(prev))),
            _ => self
                .error(t, format!("expected an expression after {}, found {}", self.describe(prev), self.describe(t))),
        }
    }

    /// Expr: operands joined by binary operators. Precedence does not matter for validity, so
    /// all binary operators share one loop.
    fn expr(&mut self) -> Result {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            let t = self.peek();
            return Err(self.error(t, format!("expression nested too deeply (more than {MAX_NESTING} levels)")));
        }
        self.unary()?;
        while self.peek().tok == Tok::Binary {
            self.bump();
            self.unary()?;
        }
        self.depth -= 1;
        Ok(())
    }

    /// UnaryExpr: `-`* UnionExpr. Union operands are paths, so `a | -b` is rightly rejected.
    fn unary(&mut self) -> Result {
        while self.peek().tok == Tok::Binary && self.src.get(self.peek().start) == Some(&'-') {
            self.bump();
        }
        self.path()?;
        while self.peek().tok == Tok::Union {
            self.bump();
            self.path()?;
        }
        Ok(())
    }

    fn at_step(&self) -> bool {
        matches!(self.peek().tok, Tok::NameTest | Tok::NodeType | Tok::Axis | Tok::At | Tok::Dot | Tok::DotDot)
    }

    /// PathExpr: a location path, or a filter expression optionally continued by `/` or `//`.
    fn path(&mut self) -> Result {
        match self.peek().tok {
            Tok::Slash => {
                self.bump();
                // A lone `/` is the root node.
                if self.at_step() { self.relative() } else { Ok(()) }
            }
            Tok::DoubleSlash => {
                self.bump();
                self.relative()
            }
            _ if self.at_step() => self.relative(),
            Tok::Variable | Tok::LParen | Tok::Literal | Tok::Number | Tok::Function => {
                self.primary()?;
                self.predicates()?;
                if matches!(self.peek().tok, Tok::Slash | Tok::DoubleSlash) {
                    self.bump();
                    self.relative()?;
                }
                Ok(())
            }
            _ => Err(self.missing_operand()),
        }
    }

    /// RelativeLocationPath: steps joined by `/` or `//`.
    fn relative(&mut self) -> Result {
        loop {
            self.step()?;
            if !matches!(self.peek().tok, Tok::Slash | Tok::DoubleSlash) {
                return Ok(());
            }
            self.bump();
        }
    }

    /// Step: `.`, `..`, or an optional axis (`name::` or `@`), a node test and predicates.
    fn step(&mut self) -> Result {
        let t = self.peek().clone();
        match t.tok {
            Tok::Dot | Tok::DotDot => {
                self.bump();
                if self.peek().tok == Tok::LBracket {
                    let long = if t.tok == Tok::Dot { "self::node()" } else { "parent::node()" };
                    let msg = format!("XPath 1.0 allows no predicate after {}; write {long}[…]", self.describe(&t));
                    return Err(self.error(self.peek(), msg));
                }
                return Ok(());
            }
            Tok::Axis => {
                let name = self.text(&t);
                if !AXES.contains(&name.as_str()) {
                    let hint = suggest(&name, AXES.iter().copied())
                        .map(|s| format!(" (did you mean '{s}'?)"))
                        .unwrap_or_default();
                    let msg = format!("unknown axis '{name}'{hint}; the axes are {}", AXES.join(", "));
                    return Err(self.error(&t, msg));
                }
                self.bump();
                if self.peek().tok == Tok::ColonColon {
                    self.bump();
                }
            }
            Tok::At => self.bump(),
            _ => {}
        }
        self.node_test()?;
        self.predicates()
    }

    /// NodeTest: a name test, `node()`, `text()`, `comment()` or `processing-instruction('x'?)`.
    fn node_test(&mut self) -> Result {
        let t = self.peek().clone();
        match t.tok {
            Tok::NameTest => {
                self.bump();
                Ok(())
            }
            Tok::NodeType => {
                let name = self.text(&t);
                self.bump();
                let open = self.pos;
                self.bump();
                if name == "processing-instruction" && self.peek().tok == Tok::Literal {
                    self.bump();
                }
                match self.peek().tok {
                    Tok::RParen => {
                        self.bump();
                        Ok(())
                    }
                    Tok::Eof => Err(self.unclosed(open)),
                    _ if name == "processing-instruction" => {
                        Err(self.error(self.peek(), "'processing-instruction()' takes at most one string literal"))
                    }
                    _ => Err(self.error(self.peek(), format!("'{name}()' takes no arguments"))),
                }
            }
            _ => {
                let after = match (self.prev(), self.pos.checked_sub(2).and_then(|i| self.toks.get(i))) {
                    (Some(p), Some(axis)) if p.tok == Tok::ColonColon && axis.tok == Tok::Axis => {
                        format!("'{}::'", self.text(axis))
                    }
                    (Some(p), _) => self.describe(p),
                    (None, _) => "the start".into(),
                };
                let what =
                    if self.prev().is_some_and(|p| p.tok == Tok::At) { "an attribute name" } else { "a node test" };
                let found = if t.tok == Tok::Eof { String::new() } else { format!(", found {}", self.describe(&t)) };
                Err(self.error(&t, format!("expected {what} after {after}{found}")))
            }
        }
    }

    fn predicates(&mut self) -> Result {
        while self.peek().tok == Tok::LBracket {
            let open = self.pos;
            self.bump();
            if self.peek().tok == Tok::RBracket {
                return Err(self.error(self.peek(), "empty predicate '[]'"));
            }
            self.expr()?;
            self.close(open, Tok::RBracket)?;
        }
        Ok(())
    }

    /// PrimaryExpr: a variable, literal, number, `( Expr )` or function call.
    fn primary(&mut self) -> Result {
        let open = self.pos;
        let t = self.peek().clone();
        self.bump();
        match t.tok {
            Tok::LParen => {
                if self.peek().tok == Tok::RParen {
                    return Err(self.error(&t, "empty parentheses '()'"));
                }
                self.expr()?;
                self.close(open, Tok::RParen)
            }
            Tok::Function => {
                // The lexer only makes a function name of a name followed by '('.
                let paren = self.pos;
                self.bump();
                if self.peek().tok == Tok::RParen {
                    self.bump();
                    return Ok(());
                }
                loop {
                    self.expr()?;
                    if self.peek().tok != Tok::Comma {
                        return self.close(paren, Tok::RParen);
                    }
                    self.bump();
                }
            }
            _ => Ok(()),
        }
    }
}
