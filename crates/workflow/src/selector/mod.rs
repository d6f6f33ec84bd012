//! Offline syntax checks for the selectors a workflow carries, so that `statewright validate` can
//! report a broken CSS selector or XPath expression before any browser starts.
//!
//! [`validate_css`] answers "would Chromium's `document.querySelectorAll` accept this?" and
//! [`validate_xpath`] answers "would `document.evaluate` parse this XPath 1.0 expression?".
//! Both only parse; nothing is evaluated. A false error on a selector the browser accepts is
//! worse than a missed one, so wherever Chromium's behaviour is uncertain (or depends on runtime
//! flags) the validators accept. Errors carry a message a user can act on and the *character*
//! offset of the problem, which the diagnostics layer turns into a position in the file.

mod css;
mod xpath;

pub use css::validate_css;
pub use xpath::validate_xpath;

/// A syntax error inside a selector. `offset` is the 0-based *character* (not byte) index in the
/// selector where the problem was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectorError {
    pub offset: usize,
    pub message: String,
}

impl SelectorError {
    pub(crate) fn new(offset: usize, message: impl Into<String>) -> Self {
        SelectorError { offset, message: message.into() }
    }
}

impl std::fmt::Display for SelectorError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (at character {})", self.message, self.offset)
    }
}

impl std::error::Error for SelectorError {}

/// How deeply functional pseudo-classes or XPath sub-expressions may nest. Real selectors stay far
/// below this; the limit exists so that hostile input cannot overflow the stack of the
/// recursive-descent parsers.
const MAX_NESTING: usize = 64;

/// The source text of `chars[start..end]` in quotes, shortened if long, for error messages.
fn quote(chars: &[char], start: usize, end: usize) -> String {
    const LIMIT: usize = 24;
    let text = chars.get(start..end.min(chars.len())).unwrap_or_default();
    let mut shown: String = text.iter().take(LIMIT).collect();
    if text.len() > LIMIT {
        shown.push('…');
    }
    // A string literal is easier to read in the other kind of quotes.
    if shown.contains('\'') && !shown.contains('"') { format!("\"{shown}\"") } else { format!("'{shown}'") }
}

/// The candidate closest to `name`, for "did you mean" hints: within edit distance 2, or 1 for
/// names of up to four characters (where two edits turn almost anything into anything).
fn suggest<'c>(name: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let limit = if name.chars().count() <= 4 { 1 } else { 2 };
    candidates
        .into_iter()
        .map(|c| (edit_distance(name, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// Optimal-string-alignment distance: Levenshtein plus adjacent transpositions, so that the
/// common typo `:hvoer` is one edit away from `:hover`.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // Three rolling rows: the one before the previous is needed for transpositions.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cur[j] = cur[j].min(before[j - 2] + 1);
            }
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Selectors from real sites and from the specifications; Chromium 156's querySelectorAll
    /// accepts every one of them.
    const VALID_CSS: &[&str] = &[
        r#"a[data-testid="set-item"][aria-label="ESPN"][href="/browse/espn"]"#,
        "div.progress-bar__container > span:nth-child(2n+1)",
        "input[name='q']",
        r"#\31 23",
        "button:not([disabled]):is(.a, .b)",
        r#"ul li:has(> a[href^="http"])"#,
        "*",
        "*|*",
        "|a",
        "a::before",
        ":root",
        r#"[data-x="a\"b"]"#,
        ".a,.b",
        "  div  >  p  ",
        "a\n>\tb + c ~ d",
        "#main-content .article:first-of-type",
        r#"input[type="checkbox" i]"#,
        r#"[lang|=en][class~=btn][title*="x"]"#,
        "[ data-x = y ]",
        "[*|href]",
        r#"[a="b"i]"#,
        "li:nth-child(odd), li:nth-child(EVEN)",
        "li:nth-child(-n+3)",
        "li:nth-child(2n)",
        "li:nth-child(+5)",
        "li:nth-last-child(n - 1)",
        "li:nth-of-type( 3n + 1 )",
        "li:nth-last-of-type(-2n-1)",
        "li:nth-child(+n- 2)",
        "tr:nth-child(2n+1 of .visible, .shown)",
        ":host, :host(.dark), :host-context(body.x)",
        "my-el:state(--open)",
        "A:HOVER, a:Not(.x)",
        r"a:hov\65r",
        "input:-webkit-autofill",
        "::-webkit-scrollbar-thumb:hover",
        "a:before, p:first-line, p::first-letter",
        "::part(label), ::part(a b)",
        "::slotted(span.x)",
        "::highlight(search)",
        "input::placeholder, ::selection",
        "button:focus-visible, :popover-open, dialog:modal, details:open, :user-valid, :target-current",
        "p:lang(en), p:dir(rtl), p:dir(sideways)",
        "::before::marker, ::slotted(a)::before, ::picker(select), ::view-transition-old(root)",
        ":is(a]), :has(:is(:has(a)))",
        "a /* unterminated comment",
        ":is(), :where(:hoverr, div >)",
        "a:not(.a, .b > c)",
        "div:has(+ p, ~ span)",
        r".foo\:bar, .\31 0, #foo\.bar, #\#x",
        r#"[data-test="日本語"] .日本"#,
        "a /* comment */ b",
        "/* leading comment */ div",
        "&, & > a",
        r#"a[href="x"]:not(:first-child)::after"#,
        "table tr:nth-child(even) td:nth-last-of-type(1)",
        r#"label[for="email"] + input"#,
        "[data-v-7ba5bd90]",
        r#"a[href*="login" i]"#,
        r#"input:not([type="hidden"]):not([disabled])"#,
        "form#login input[type=password]",
        "x-foo-bar > ._private",
        "#a\\",
    ];

    /// Accepted by design although Chromium 156 rejects them: the brief asks for namespace
    /// syntax, the `s` flag, the media pseudo-classes and any vendor-prefixed name, and Chromium
    /// gates `:lang()` lists and pseudo-classes after pseudo-elements behind runtime flags.
    const LENIENT_CSS: &[&str] = &[
        "svg|rect",
        "ns|*",
        "[xlink|href]",
        "a[href$='.pdf' s]",
        "video:playing, audio:muted, details:closed",
        "input:-webkit-not-a-real-thing",
        r#"p:lang("de-*-DE", fr)"#,
        "a::before:hover",
    ];

    /// Invalid selectors, the character offset of the error and a fragment of its message.
    /// Chromium closes constructs left open at the end (`a[href`, `:is(a`, `[a="b`), but such a
    /// selector is virtually always truncated, so these are reported too.
    const INVALID_CSS: &[(&str, usize, &str)] = &[
        ("", 0, "empty selector"),
        ("   ", 0, "empty selector"),
        ("div >", 5, "expected a selector after '>'"),
        ("> a", 0, "cannot start with '>'"),
        ("a,,b", 2, "between two commas"),
        (",a", 0, "before ','"),
        ("a,", 2, "after ','"),
        ("a > > b", 4, "expected a selector after '>'"),
        (
            "#123",
            1,
            r"expected an identifier after '#': a name cannot start with a digit unless escaped (write '#\31 23')",
        ),
        ("a #", 3, "expected an identifier after '#'"),
        ("a.", 2, "expected a class name after '.'"),
        (".5x", 0, "is not a class selector"),
        ("a[href", 1, "unclosed '[' attribute selector"),
        ("a[b=\"x\"", 1, "unclosed '['"),
        ("a[href=\"x", 7, "unclosed string"),
        ("a:not(.b", 2, "unbalanced parenthesis: 'not(' is never closed"),
        ("a)", 1, "unbalanced parenthesis"),
        ("a b]", 3, "no matching '['"),
        ("a:hoverr", 1, "unknown pseudo-class ':hoverr' (did you mean ':hover'?)"),
        ("a:nth-chld(2)", 1, "did you mean ':nth-child()'?"),
        (":hvoer", 0, "did you mean ':hover'?"),
        ("text=Foo", 0, "'text=' is Playwright syntax, not CSS; use a text target instead"),
        ("button:has-text(\"Save\")", 6, "':has-text()' is Playwright syntax, not CSS; use a text target instead"),
        ("a:contains('x')", 1, "jQuery"),
        ("div >> span", 4, "'>>' is Playwright syntax"),
        ("a[href=/foo]", 7, "quote this attribute value"),
        ("[data-id=5]", 9, "quote this attribute value"),
        ("[title=Hello world]", 13, "quote the value"),
        ("a[b~c]", 4, "expected '=' right after '~'"),
        ("a[b=c x]", 6, "the only attribute flags are 'i' and 's'"),
        ("a::before > b", 10, "must be in the last compound selector"),
        ("a::before.x", 9, "cannot follow the pseudo-element '::before'"),
        (":not(::before)", 5, "not allowed inside ':not()'"),
        (":has(:has(a))", 5, "cannot be nested"),
        ("li:nth-child(2n+)", 16, "invalid An+B value"),
        ("li:nth-child(2 n)", 15, "expected ')' after the An+B value"),
        ("li:nth-of-type(2n of .a)", 18, "'of <selector>' is only allowed"),
        ("a:hover()", 1, "takes no arguments"),
        (":nth-child", 0, "needs an argument"),
        ("a::hover", 1, "is a pseudo-class"),
        ("a:placeholder", 1, "is a pseudo-element"),
        ("::-moz-selection", 0, "another browser engine"),
        ("div{color:red}", 3, "declaration block"),
        ("*.a*", 3, "must come first"),
        ("a||b", 1, "column combinator"),
        ("//div", 0, "looks like an XPath expression"),
        ("a 'b'", 2, "unexpected string"),
        (":host(.a .b)", 9, "one compound selector"),
        ("p:lang()", 7, "language codes"),
        (":dir(\"ltr\")", 5, "takes an identifier"),
        (":is(a", 1, "unbalanced parenthesis"),
        ("a:", 2, "expected a pseudo-class name after ':'"),
        ("a:::before", 3, "too many colons"),
        ("a\"b\nc\"", 3, "line break"),
        ("a:not(:before)", 6, "not allowed inside ':not()'"),
        (":has(:not(:has(a)))", 10, "cannot be nested"),
        (":host(a b)", 8, "one compound selector"),
        // Offsets count characters, not bytes: the error follows multi-byte text.
        ("[title=\"日本語\"]:hoverr", 13, "unknown pseudo-class"),
    ];

    /// Chromium 156's document.createExpression accepts every one of these.
    const VALID_XPATH: &[&str] = &[
        "//input[@name='q']",
        "(//a)[last()]",
        "//div[contains(@class,'x') and not(@hidden)]/following-sibling::*[1]",
        "/html/body//text()[normalize-space(.)='Go']",
        r#"//*[@id="a"] | //b"#,
        "count(//a) > 2",
        "-1",
        "//a[@href][2]",
        ".//span",
        "ancestor-or-self::node()",
        "/",
        ".",
        "..",
        "../a",
        "@href",
        "*",
        "//a[text()='x']",
        "//processing-instruction('xml-stylesheet') | //processing-instruction()",
        "//comment()",
        "3. + .5",
        "1 + 2 * 3 div 4 mod 5 - -6",
        "id('main')/div",
        "//a[position() <= 3 or position() >= 10 and . != 'x']",
        "  //a  ",
        "//div[string-length(normalize-space()) > 0]",
        r#"concat('a', "b", 'c')"#,
        "//a[starts-with(@href, 'http')][not(contains(@href, 'example.com'))]",
        "//table//tr[td[1][. = 'Name']]/td[2]",
        "child::div/descendant::span[attribute::class]",
        "preceding-sibling::* | namespace::* | self::node()",
        "//div/div div 2",
        "//*[name() = 'div' and @mod]",
        "div",
        "//ul/li[last()-1]",
        "//*[local-name()='svg']/*[local-name()='path']",
        "(//a | //b)[1]/@href",
        "//a [1]",
        "count ( //a )",
        "child :: a",
        "//a[@title='日本語']//é",
        "//a[@x='1'\n\tor @y]",
        "$var/a | $x[1]",
        "//a[@x and and]",
    ];

    /// Accepted by design although Chromium rejects them when parsing: it resolves namespace
    /// prefixes (there is no resolver) and function names and arities at parse time, while the
    /// brief asks for a syntax check that accepts any function.
    const LENIENT_XPATH: &[&str] =
        &["a:b", "//svg:*", "//@xml:lang", "$ns:x", "lower-case(//a)", "count()", "ancestor-or-self:node()"];

    const INVALID_XPATH: &[(&str, usize, &str)] = &[
        ("", 0, "empty expression"),
        ("  ", 0, "empty expression"),
        ("//", 2, "expected a node test after '//'"),
        ("//a/", 4, "expected a node test after '/'"),
        ("//a[", 3, "unclosed '[' predicate"),
        ("//a[1", 3, "unclosed '[' predicate"),
        ("//a[@]", 5, "expected an attribute name after '@', found ']'"),
        ("foo::bar", 0, "unknown axis 'foo'; the axes are ancestor, ancestor-or-self"),
        ("decendant::a", 0, "did you mean 'descendant'?"),
        ("//a)", 3, "unbalanced parenthesis: ')' has no matching '('"),
        ("'unterminated", 0, "unterminated string literal"),
        ("//a[1]]", 6, "no matching '['"),
        ("(//a", 0, "unbalanced parenthesis: '(' is never closed"),
        ("count(//a", 5, "unbalanced parenthesis"),
        ("//a[]", 4, "empty predicate"),
        ("()", 0, "empty parentheses"),
        ("//a b", 4, "where an operator"),
        ("//a[@x=]", 7, "expected an expression after '=', found ']'"),
        ("1 +", 3, "expected an expression after '+'"),
        ("//a[@x==1]", 6, "'=='"),
        ("//a[@x!1]", 6, "'!'"),
        ("//a[.[1]]", 5, "no predicate after '.'"),
        ("text('x')", 5, "'text()' takes no arguments"),
        ("//a[@x eq 'y']", 7, "XPath 2.0"),
        ("$", 1, "expected a variable name after '$'"),
        ("a:", 2, "expected a local name or '*' after 'a:'"),
        ("//a[@x=1 and]", 12, "expected an expression after 'and', found ']'"),
        ("concat('a',)", 11, "expected an expression after ','"),
        ("//a | ", 6, "expected an expression after '|'"),
        ("//a | -1", 6, "expected an expression after '|'"),
        ("#id", 0, "CSS selector"),
        (".btn", 1, "CSS class selector"),
        ("xpath=//a", 0, "Playwright"),
        ("//a[@x='1' && @y]", 11, "XPath writes 'and'"),
        ("child::", 7, "expected a node test after 'child::'"),
        ("//a[1 2]", 6, "expected ']' to close the predicate"),
        ("//count(a)", 2, "expected a node test"),
        ("//a[1e3]", 5, "where an operator"),
        ("child::b::c", 7, "expected a node test after 'child::', found 'b'"),
        // Offsets count characters, not bytes.
        ("//a[@title='日本語'] b", 18, "where an operator"),
    ];

    #[test]
    fn accepts_valid_css() {
        let wrong: Vec<String> = VALID_CSS
            .iter()
            .chain(LENIENT_CSS)
            .filter_map(|s| validate_css(s).err().map(|e| format!("{s:?}: {e}")))
            .collect();
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn rejects_invalid_css_at_the_right_place() {
        let wrong: Vec<String> = INVALID_CSS
            .iter()
            .filter_map(|&(s, offset, message)| match validate_css(s) {
                Err(e) if e.offset == offset && e.message.contains(message) => None,
                other => Some(format!("{s:?} expected {message:?} at {offset}, got {other:?}")),
            })
            .collect();
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn accepts_valid_xpath() {
        let wrong: Vec<String> = VALID_XPATH
            .iter()
            .chain(LENIENT_XPATH)
            .filter_map(|s| validate_xpath(s).err().map(|e| format!("{s:?}: {e}")))
            .collect();
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn rejects_invalid_xpath_at_the_right_place() {
        let wrong: Vec<String> = INVALID_XPATH
            .iter()
            .filter_map(|&(s, offset, message)| match validate_xpath(s) {
                Err(e) if e.offset == offset && e.message.contains(message) => None,
                other => Some(format!("{s:?} expected {message:?} at {offset}, got {other:?}")),
            })
            .collect();
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn display_names_the_character() {
        let e = SelectorError::new(3, "unexpected ')'");
        assert_eq!(e.to_string(), "unexpected ')' (at character 3)");
    }

    #[test]
    fn edit_distance_counts_transpositions_once() {
        assert_eq!(edit_distance("hover", "hover"), 0);
        assert_eq!(edit_distance("hvoer", "hover"), 1);
        assert_eq!(edit_distance("hoverr", "hover"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(suggest("foo", ["root", "focus"]), None);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let css = format!("{}a{}", ":not(".repeat(10_000), ")".repeat(10_000));
        assert!(validate_css(&css).unwrap_err().message.contains("nested too deeply"));
        let xpath = format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000));
        assert!(validate_xpath(&xpath).unwrap_err().message.contains("nested too deeply"));
        let predicates = format!("{}1{}", "a[".repeat(10_000), "]".repeat(10_000));
        assert!(validate_xpath(&predicates).is_err());
        // Long flat inputs are loops, not recursion.
        assert_eq!(validate_xpath(&format!("{}1", "-".repeat(100_000))), Ok(()));
        assert_eq!(validate_css("a > ".repeat(50_000).trim_end_matches("> ")), Ok(()));
        assert_eq!(validate_css(&format!(":is({}", "(".repeat(50_000))).unwrap_err().offset, 50_003);
    }

    #[test]
    fn no_input_panics() {
        let samples = VALID_CSS
            .iter()
            .chain(LENIENT_CSS)
            .chain(VALID_XPATH)
            .chain(LENIENT_XPATH)
            .copied()
            .chain(INVALID_CSS.iter().map(|c| c.0))
            .chain(INVALID_XPATH.iter().map(|c| c.0));
        for s in samples {
            for (end, _) in s.char_indices().chain([(s.len(), ' ')]) {
                let prefix = &s[..end];
                let _ = (validate_css(prefix), validate_xpath(prefix));
            }
        }
        // A fixed xorshift generator keeps the test deterministic without dependencies.
        let alphabet: Vec<char> = "ab-_*|#.:[]()'\"\\=~^$+>,/@ 0129nN\né日{}!&%<".chars().collect();
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..5_000 {
            let mut s = String::new();
            let len = state % 24;
            for _ in 0..len {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                s.push(alphabet[(state % alphabet.len() as u64) as usize]);
            }
            let (css, xpath) = (validate_css(&s), validate_xpath(&s));
            for e in [css.err(), xpath.err()].into_iter().flatten() {
                assert!(e.offset <= s.chars().count(), "{s:?}: {e}");
            }
        }
    }
}
