//! Pseudo-classes and pseudo-elements: the names Chromium knows, the Playwright and jQuery
//! look-alikes users bring along, and the syntax of every argument Chromium checks.

use super::tokenizer::Kind;
use super::{Compound, Ctx, Parser, Result};
use crate::selector::suggest;

/// Pseudo-classes without arguments that Chromium knows. Some are still behind runtime flags
/// (in Chromium 156: the media states `playing`, `paused`, `muted` …, `closed`, `heading`,
/// `has-slotted`) and may be enabled at any time: accepting them costs a missed error at worst,
/// rejecting a name the browser accepts would be a false one.
#[rustfmt::skip]
const PSEUDO_CLASSES: &[&str] = &[
    "active", "active-view-transition", "any-link", "autofill", "buffering", "checked", "closed", "corner-present",
    "current", "decrement", "default", "defined", "disabled", "double-button", "empty", "enabled", "end", "first-child",
    "first-of-type", "focus", "focus-visible", "focus-within", "fullscreen", "future", "granted", "has-slotted",
    "heading", "horizontal", "host", "hover", "in-range", "increment", "indeterminate", "interest-source",
    "interest-target", "invalid", "last-child", "last-of-type", "link", "modal", "muted", "no-button", "only-child",
    "only-of-type", "open", "optional", "out-of-range", "past", "paused", "picture-in-picture", "placeholder-shown",
    "playing", "popover-open", "read-only", "read-write", "required", "root", "scope", "seeking", "single-button",
    "stalled", "start", "target", "target-after", "target-before", "target-current", "user-invalid", "user-valid",
    "valid", "vertical", "visited", "volume-locked", "window-inactive", "xr-overlay",
];
/// Pseudo-classes that take arguments. Those without a dedicated argument parser in
/// [`Parser::pseudo_class`] have their (balanced) arguments skipped unchecked.
#[rustfmt::skip]
const PSEUDO_CLASS_FUNCTIONS: &[&str] = &[
    "active-view-transition-type", "current", "dir", "has", "heading", "host", "host-context", "is", "lang", "not",
    "nth-child", "nth-last-child", "nth-last-of-type", "nth-of-type", "state", "where",
];
#[rustfmt::skip]
const PSEUDO_ELEMENTS: &[&str] = &[
    "after", "backdrop", "before", "checkmark", "column", "cue", "details-content", "file-selector-button",
    "first-letter", "first-line", "grammar-error", "interest-hint", "marker", "permission-icon", "picker-icon",
    "placeholder", "scroll-marker", "scroll-marker-group", "search-text", "selection", "spelling-error", "target-text",
    "view-transition",
];
#[rustfmt::skip]
const PSEUDO_ELEMENT_FUNCTIONS: &[&str] = &[
    "cue", "highlight", "part", "picker", "scroll-button", "slotted", "view-transition-group",
    "view-transition-group-children", "view-transition-image-pair", "view-transition-new", "view-transition-old",
];
/// CSS 2 pseudo-elements, which still parse with a single colon.
const LEGACY_PSEUDO_ELEMENTS: &[&str] = &["after", "before", "first-letter", "first-line"];
/// Pseudo-classes people bring from Playwright or jQuery, with what to write instead.
const FOREIGN: &[(&str, &str)] = &[
    ("has-text", "Playwright syntax, not CSS; use a text target instead"),
    ("text", "Playwright syntax, not CSS; use a text target instead"),
    ("text-is", "Playwright syntax, not CSS; use a text target instead"),
    ("text-matches", "Playwright syntax, not CSS; use a text target instead"),
    ("visible", "Playwright/jQuery syntax, not CSS"),
    ("nth-match", "Playwright syntax, not CSS; use the target's \"nth\" instead"),
    ("above", "Playwright layout syntax, not CSS"),
    ("below", "Playwright layout syntax, not CSS"),
    ("near", "Playwright layout syntax, not CSS"),
    ("left-of", "Playwright layout syntax, not CSS"),
    ("right-of", "Playwright layout syntax, not CSS"),
    ("contains", "jQuery syntax, not CSS; use a text target instead"),
    ("eq", "jQuery syntax, not CSS; use the target's \"nth\" or ':nth-child()'"),
    ("first", "jQuery syntax, not CSS; use ':first-child' or ':first-of-type'"),
    ("last", "jQuery syntax, not CSS; use ':last-child' or ':last-of-type'"),
    ("even", "jQuery syntax, not CSS; use ':nth-child(even)'"),
    ("odd", "jQuery syntax, not CSS; use ':nth-child(odd)'"),
    ("selected", "jQuery syntax, not CSS; use ':checked'"),
    ("gt", "jQuery syntax, not CSS"),
    ("lt", "jQuery syntax, not CSS"),
    ("hidden", "jQuery syntax, not CSS"),
    ("input", "jQuery syntax, not CSS"),
    ("button", "jQuery syntax, not CSS"),
    ("checkbox", "jQuery syntax, not CSS"),
    ("header", "jQuery syntax, not CSS"),
    ("parent", "jQuery syntax, not CSS"),
];

/// " (did you mean ':hover'?)" when some known name is close to `name`.
fn did_you_mean(name: &str, colons: &str, plain: &[&str], functions: &[&str]) -> String {
    let candidates = plain.iter().chain(functions).copied();
    match suggest(name, candidates) {
        Some(s) => {
            let parens = if functions.contains(&s) && !plain.contains(&s) { "()" } else { "" };
            format!(" (did you mean '{colons}{s}{parens}'?)")
        }
        None if ["-moz-", "-ms-", "-o-"].iter().any(|p| name.starts_with(p)) => {
            " (that prefix belongs to another browser engine)".into()
        }
        None => String::new(),
    }
}

impl Parser<'_> {
    /// `:name`, `:name(…)`, `::name` or `::name(…)`. Returns the display name of a pseudo-element,
    /// since that restricts what may follow it.
    pub(super) fn pseudo(&mut self, ctx: Ctx) -> Result<Option<String>> {
        let colon = self.peek().clone();
        self.bump();
        let element = *self.kind(0) == Kind::Colon;
        if element {
            self.bump();
        }
        let t = self.peek().clone();
        let (name, is_fn) = match &t.kind {
            Kind::Ident(n) => (n.to_ascii_lowercase(), false),
            Kind::Function(n) => (n.to_ascii_lowercase(), true),
            Kind::Colon => return Err(self.error(&t, "too many colons: pseudo-classes take ':', pseudo-elements '::'")),
            _ if element => return Err(self.error(&t, "expected a pseudo-element name after '::'")),
            _ => return Err(self.error(&t, "expected a pseudo-class name after ':'")),
        };
        let open = self.pos;
        self.bump();
        let parens = if is_fn { "()" } else { "" };
        // Chromium maps unknown `::-webkit-*` names to custom pseudo-elements; as pseudo-classes
        // it only knows some of them, but prefixed names are accepted wholesale by design.
        let vendor = name.starts_with("-webkit-") || name.starts_with("-internal-");
        let is_element =
            vendor || PSEUDO_ELEMENTS.contains(&name.as_str()) || PSEUDO_ELEMENT_FUNCTIONS.contains(&name.as_str());
        let is_class = PSEUDO_CLASSES.contains(&name.as_str()) || PSEUDO_CLASS_FUNCTIONS.contains(&name.as_str());
        if element && is_class && !is_element {
            return Err(
                self.error(&colon, format!("':{name}{parens}' is a pseudo-class: write it with a single colon"))
            );
        }
        let legacy = !element && !is_fn && LEGACY_PSEUDO_ELEMENTS.contains(&name.as_str());
        if (element || legacy) && ctx.inside.is_some() {
            let inside = ctx.inside.map_or("", |(n, _)| n);
            let msg = format!("pseudo-elements such as '::{name}{parens}' are not allowed inside '{inside}'");
            return Err(self.error(&colon, msg));
        }
        if legacy {
            return Ok(Some(format!(":{name}")));
        }
        if is_fn {
            // Each level of functional arguments is a level of recursion.
            self.enter(&colon)?;
        }
        let parsed = if element {
            self.pseudo_element(&name, is_fn, vendor, open, &colon)
        } else {
            self.pseudo_class(ctx, &name, is_fn, vendor, open, &colon)
        };
        self.depth -= usize::from(is_fn);
        parsed?;
        Ok(element.then(|| format!("::{name}{parens}")))
    }

    fn pseudo_element(&mut self, name: &str, is_fn: bool, vendor: bool, open: usize, colon: &super::Token) -> Result {
        let shown = format!("::{name}{}", if is_fn { "()" } else { "" });
        let top = Ctx { inside: None, relative: false, in_has: false };
        match (name, is_fn) {
            ("part", true) => self.idents("::part()", open),
            ("slotted", true) => self.compound_arg(top.nested("::slotted()", open)),
            ("highlight", true) => self.single_ident("::highlight()", open),
            ("picker", true) => self.single_ident("::picker()", open),
            (_, true) if vendor || PSEUDO_ELEMENT_FUNCTIONS.contains(&name) => self.skip_args(open),
            (_, false) if vendor || PSEUDO_ELEMENTS.contains(&name) => Ok(()),
            (_, true) if PSEUDO_ELEMENTS.contains(&name) => {
                Err(self.error(colon, format!("'::{name}' takes no arguments")))
            }
            (_, false) if PSEUDO_ELEMENT_FUNCTIONS.contains(&name) => {
                Err(self.error(colon, format!("'::{name}' needs an argument: '::{name}(…)'")))
            }
            _ => {
                let hint = did_you_mean(name, "::", PSEUDO_ELEMENTS, PSEUDO_ELEMENT_FUNCTIONS);
                Err(self.error(colon, format!("unknown pseudo-element '{shown}'{hint}")))
            }
        }
    }

    fn pseudo_class(
        &mut self,
        ctx: Ctx,
        name: &str,
        is_fn: bool,
        vendor: bool,
        open: usize,
        colon: &super::Token,
    ) -> Result {
        let shown = format!(":{name}{}", if is_fn { "()" } else { "" });
        if let Some((_, advice)) = FOREIGN.iter().find(|(n, _)| *n == name) {
            return Err(self.error(colon, format!("'{shown}' is {advice}")));
        }
        if !is_fn {
            return if vendor || PSEUDO_CLASSES.contains(&name) {
                Ok(())
            } else if PSEUDO_CLASS_FUNCTIONS.contains(&name) {
                Err(self.error(colon, format!("'{shown}' needs an argument: ':{name}(…)'")))
            } else if PSEUDO_ELEMENTS.contains(&name) {
                Err(self.error(colon, format!("'{name}' is a pseudo-element: write '::{name}'")))
            } else {
                let hint = did_you_mean(name, ":", PSEUDO_CLASSES, PSEUDO_CLASS_FUNCTIONS);
                Err(self.error(colon, format!("unknown pseudo-class '{shown}'{hint}")))
            };
        }
        match name {
            "not" => self.selector_arg(ctx.nested(":not()", open)),
            "has" if ctx.in_has => Err(self.error(colon, "':has()' cannot be nested inside another ':has()'")),
            "has" => self.selector_arg(Ctx { inside: Some((":has()", open)), relative: true, in_has: true }),
            "nth-child" => self.nth(ctx, ":nth-child()", open, true),
            "nth-last-child" => self.nth(ctx, ":nth-last-child()", open, true),
            "nth-of-type" => self.nth(ctx, ":nth-of-type()", open, false),
            "nth-last-of-type" => self.nth(ctx, ":nth-last-of-type()", open, false),
            "host" => self.compound_arg(ctx.nested(":host()", open)),
            "host-context" => self.compound_arg(ctx.nested(":host-context()", open)),
            "dir" => self.single_ident(":dir()", open),
            "state" => self.single_ident(":state()", open),
            "lang" => self.lang(open),
            // `:is()` and `:where()` take forgiving selector lists: Chromium drops arguments it
            // cannot parse instead of rejecting the selector, so any balanced content is valid.
            _ if vendor || PSEUDO_CLASS_FUNCTIONS.contains(&name) => self.skip_args(open),
            _ if PSEUDO_CLASSES.contains(&name) => Err(self.error(colon, format!("':{name}' takes no arguments"))),
            _ if PSEUDO_ELEMENT_FUNCTIONS.contains(&name) => {
                Err(self.error(colon, format!("'{name}()' is a pseudo-element: write '::{name}()'")))
            }
            _ => {
                let hint = did_you_mean(name, ":", PSEUDO_CLASSES, PSEUDO_CLASS_FUNCTIONS);
                Err(self.error(colon, format!("unknown pseudo-class '{shown}'{hint}")))
            }
        }
    }

    /// Expects the `)` closing the function opened by token `open`; `what` explains anything else.
    fn close(&mut self, open: usize, what: &str) -> Result {
        self.skip_ws();
        let t = self.peek().clone();
        match t.kind {
            Kind::Close(')') => {
                self.bump();
                Ok(())
            }
            Kind::Eof => Err(self.unclosed(open)),
            _ => Err(self.error(&t, format!("{what}, found {}", self.describe(&t)))),
        }
    }

    /// A selector list argument, e.g. of `:not()`, up to and including its `)`.
    fn selector_arg(&mut self, ctx: Ctx) -> Result {
        self.list(ctx)?;
        self.bump();
        Ok(())
    }

    /// The single compound selector of `:host()`, `:host-context()` and `::slotted()`.
    fn compound_arg(&mut self, ctx: Ctx) -> Result {
        let (name, open) = ctx.inside.unwrap_or(("", 0));
        self.skip_ws();
        if let Compound::Empty = self.compound(ctx)? {
            let t = self.peek();
            if t.kind == Kind::Eof {
                return Err(self.unclosed(open));
            }
            return Err(self.error(t, format!("'{name}' needs a compound selector, found {}", self.describe(t))));
        }
        self.close(open, &format!("'{name}' takes one compound selector, without combinators or commas"))
    }

    fn single_ident(&mut self, name: &str, open: usize) -> Result {
        self.skip_ws();
        let t = self.peek().clone();
        match t.kind {
            Kind::Ident(_) => self.bump(),
            Kind::Eof => return Err(self.unclosed(open)),
            _ => return Err(self.error(&t, format!("'{name}' takes an identifier, found {}", self.describe(&t)))),
        }
        self.close(open, &format!("'{name}' takes a single identifier"))
    }

    /// The space-separated names of `::part()`, at least one.
    fn idents(&mut self, name: &str, open: usize) -> Result {
        let mut first = true;
        loop {
            self.skip_ws();
            let t = self.peek().clone();
            match t.kind {
                Kind::Ident(_) => self.bump(),
                Kind::Close(')') if !first => {
                    self.bump();
                    return Ok(());
                }
                Kind::Eof => return Err(self.unclosed(open)),
                _ => {
                    let msg = format!("'{name}' takes names separated by spaces, found {}", self.describe(&t));
                    return Err(self.error(&t, msg));
                }
            }
            first = false;
        }
    }

    /// The comma-separated language ranges of `:lang()`: identifiers or strings.
    fn lang(&mut self, open: usize) -> Result {
        loop {
            self.skip_ws();
            let t = self.peek().clone();
            match t.kind {
                Kind::Ident(_) | Kind::Str => self.bump(),
                Kind::Eof => return Err(self.unclosed(open)),
                _ => {
                    let msg =
                        format!("':lang()' takes language codes such as en or \"de-*\", found {}", self.describe(&t));
                    return Err(self.error(&t, msg));
                }
            }
            self.skip_ws();
            if *self.kind(0) != Kind::Comma {
                return self.close(open, "expected ',' or ')' in ':lang()'");
            }
            self.bump();
        }
    }

    /// Skips balanced arguments that are not checked, up to and including the closing `)`.
    fn skip_args(&mut self, open: usize) -> Result {
        // Closers that do not match the innermost opener are ordinary tokens, as in CSS blocks.
        let mut stack = vec![(')', open)];
        while let Some(&(closer, _)) = stack.last() {
            let at = self.pos;
            match self.kind(0).clone() {
                Kind::Eof => return Err(self.unclosed(stack.last().map_or(open, |&(_, o)| o))),
                Kind::Function(_) | Kind::Open('(') => stack.push((')', at)),
                Kind::Open('[') => stack.push((']', at)),
                Kind::Open('{') => stack.push(('}', at)),
                Kind::Close(c) if c == closer => {
                    stack.pop();
                }
                _ => {}
            }
            self.bump();
        }
        Ok(())
    }

    /// `An+B [of S]` for the `:nth-*()` family.
    fn nth(&mut self, ctx: Ctx, name: &'static str, open: usize, of_allowed: bool) -> Result {
        self.skip_ws();
        self.an_plus_b(name, open)?;
        self.skip_ws();
        let t = self.peek().clone();
        match &t.kind {
            Kind::Ident(word) if word.eq_ignore_ascii_case("of") => {
                if !of_allowed {
                    let msg = format!(
                        "'of <selector>' is only allowed in ':nth-child()' and ':nth-last-child()', not '{name}'"
                    );
                    return Err(self.error(&t, msg));
                }
                self.bump();
                self.selector_arg(ctx.nested(name, open))
            }
            _ => self.close(open, &format!("expected ')' after the An+B value of '{name}'")),
        }
    }

    /// The An+B microsyntax (CSS Syntax 3 §6.2) over tokens, the way Chromium's `ConsumeANPlusB`
    /// walks it: the `n` ends up inside an identifier or a dimension's unit (`2n-1` is one token).
    fn an_plus_b(&mut self, name: &str, open: usize) -> Result {
        let bad = |p: &Self, t: &super::Token| {
            if t.kind == Kind::Eof {
                return p.unclosed(open);
            }
            let what = p.describe(t);
            let msg = format!(
                "invalid An+B value in '{name}': expected e.g. 'odd', 'even', '3', '2n+1' or '-n+3', found {what}"
            );
            p.error(t, msg)
        };
        let first = self.peek().clone();
        let n_part = match first.kind.clone() {
            Kind::Number { integer: true, .. } => {
                self.bump();
                return Ok(());
            }
            Kind::Ident(v) if v.eq_ignore_ascii_case("odd") || v.eq_ignore_ascii_case("even") => {
                self.bump();
                return Ok(());
            }
            // `+n`: no space may separate the sign from the n.
            Kind::Delim('+') => match self.kind(1).clone() {
                Kind::Ident(v) => {
                    self.pos += 2;
                    v
                }
                _ => return Err(bad(self, &first)),
            },
            Kind::Dimension { integer: true, unit } => {
                self.bump();
                unit
            }
            Kind::Ident(v) => {
                self.bump();
                v.strip_prefix('-').map_or(v.clone(), str::to_owned)
            }
            _ => return Err(bad(self, &first)),
        };
        let n_part = n_part.to_ascii_lowercase();
        let Some(rest) = n_part.strip_prefix('n') else { return Err(bad(self, &first)) };
        // What follows the n inside the same token: nothing, a dash (`n- 1`) or the whole B (`n-1`).
        let dash = match rest {
            "" => false,
            "-" => true,
            _ if rest.strip_prefix('-').is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit())) => return Ok(()),
            _ => return Err(bad(self, &first)),
        };
        self.skip_ws();
        if !dash {
            match self.kind(0) {
                Kind::Delim('+' | '-') => {
                    self.bump();
                    self.skip_ws();
                }
                Kind::Number { integer: true, signed: true } => {
                    self.bump();
                    return Ok(());
                }
                Kind::Number { .. } => return Err(bad(self, self.peek())),
                _ => return Ok(()),
            }
        }
        // The sign of B came separately, so B itself must be unsigned.
        match self.kind(0) {
            Kind::Number { integer: true, signed: false } => {
                self.bump();
                Ok(())
            }
            _ => Err(bad(self, self.peek())),
        }
    }
}
