//! Parser tests: valid calls, errors with positions, and inputs that must never panic.
use super::*;

fn ok(src: &str) -> Call {
    match parse_call(src) {
        Ok(call) => call,
        Err(e) => panic!("{src:?} should parse, got: {e}"),
    }
}

/// The single argument's value of `f(...)`-style test inputs.
fn one(src: &str) -> Literal {
    let call = ok(src);
    assert_eq!(call.args.len(), 1, "{src:?}");
    call.args[0].value.clone()
}

fn s(text: &str) -> Literal {
    Literal::Str(text.to_owned())
}

fn bad(src: &str, offset: usize, fragment: &str) {
    match parse_call(src) {
        Ok(call) => panic!("{src:?} should fail, parsed as {call:?}"),
        Err(e) => {
            assert!(e.message.contains(fragment), "{src:?}: message {:?} lacks {fragment:?}", e.message);
            assert_eq!(e.offset, offset, "{src:?}: wrong offset for {:?}", e.message);
        }
    }
}

/// Character index of `needle` in `hay` (for spans in test strings).
fn at(hay: &str, needle: &str) -> usize {
    let byte = hay.find(needle).expect("needle in test string");
    hay[..byte].chars().count()
}

fn kw<'a>(call: &'a Call, name: &str) -> &'a Arg {
    call.args.iter().find(|a| a.keyword.as_deref() == Some(name)).expect("keyword present")
}

const CLICK_ESPN: &str = r#"click(by='css selector', selector='a[data-testid="set-item"][aria-label="ESPN"]', button='left', percentage=0.5, scroll_to=True)"#;
const TYPE_Q: &str = r#"type(by='xpath', selector="//input[@name='q']", text='{{query}}')"#;
const CLICK_ITS_OK: &str = r#"click(by="xpath", selector='//button[text()="It\'s ok"]', coordinates=(120, 45.5))"#;

/// Every valid example used below; their prefixes also feed the no-panic round.
const VALID: &[&str] = &[
    CLICK_ESPN,
    TYPE_Q,
    CLICK_ITS_OK,
    "press_key(key='tab')",
    "press_key('enter')",
    "wait(seconds=5)",
    "wait(2.5)",
    "scroll('down', 300)",
    "navigate_to(\"https://x.y/?a=1&b=2\")",
    "save_html(filename=None)",
    "  click()  ",
    "click();",
    "click() ; ",
    "self.click(selector='#a')",
    "browser . click ('x')",
    "wait(5,)",
    "f(x=-5)",
    "f(+3)",
    "f(- 2.5)",
    "f(--5)",
    "f(0x1F, 0o17, 0b101, 1_000_000, 0x_ff, 0XFF)",
    "f(.5, 5., 1e3, 1.5E-3, 1_0.2_5, 1.e2, 0.0, 00.5, 0e0, 1E+2)",
    "f(-9223372036854775808, 9223372036854775807)",
    "f('a' \"b\" '''c''')",
    r"f(r'\d+\.')",
    r#"f(R"\n", u'x', U"y")"#,
    r#"f('\\ \' \" \n \r \t \0 \x41 \u00e9 \U0001F600')"#,
    r"f('\d\w', '\101\7', '\a\b\f\v')",
    "f(\"\"\"a \"b\" ''c''\nline\"\"\")",
    "f('''it's''')",
    "f('ab\\\ncd')",
    "f((), (1,), (1), [], [1, 'a', [True, None], (2.5,)])",
    "f([1,2,],)",
    "f(True, False, None)",
    "type(selector='#é', text='ünïcödé 😀')",
    "click(\n  by='xpath',\n  selector='//a'\n)",
    "click(\u{a0}by='x'\u{a0})",
    "f(a = 1)",
    "f('', \"\", '''''', \"\"\"\"\"\")",
    r"f(r'a\'b')",
    "f(x=(1, (2, [3])))",
    "f('#')",
    "f('a' 'b', c='d' \"e\")",
    "_private_1(_x=1)",
    "f(00, 0)",
    "f('{{name}}')",
];

#[test]
fn all_valid_examples_parse() {
    for src in VALID {
        ok(src);
    }
    assert!(VALID.len() >= 30);
}

#[test]
fn cligent_click_with_spans() {
    let call = ok(CLICK_ESPN);
    assert_eq!(call.name, "click");
    assert_eq!(call.name_span, Span { start: 0, end: 5 });
    let names: Vec<_> = call.args.iter().map(|a| a.keyword.as_deref().unwrap_or("")).collect();
    assert_eq!(names, ["by", "selector", "button", "percentage", "scroll_to"]);
    assert_eq!(kw(&call, "by").value, s("css selector"));
    assert_eq!(kw(&call, "selector").value, s(r#"a[data-testid="set-item"][aria-label="ESPN"]"#));
    assert_eq!(kw(&call, "button").value, s("left"));
    assert_eq!(kw(&call, "percentage").value, Literal::Float(0.5));
    assert_eq!(kw(&call, "scroll_to").value, Literal::Bool(true));

    let sel = kw(&call, "selector");
    let start = at(CLICK_ESPN, "selector=");
    let value_start = at(CLICK_ESPN, "'a[data");
    let end = at(CLICK_ESPN, ", button");
    assert_eq!(sel.span, Span { start, end });
    assert_eq!(sel.value_span, Span { start: value_start, end });
    let pct = kw(&call, "percentage");
    assert_eq!(pct.value_span, Span { start: at(CLICK_ESPN, "0.5"), end: at(CLICK_ESPN, "0.5") + 3 });
    let last = kw(&call, "scroll_to");
    assert_eq!(last.span.end, CLICK_ESPN.len() - 1);
}

#[test]
fn cligent_type_and_others() {
    let call = ok(TYPE_Q);
    assert_eq!(call.name, "type");
    assert_eq!(kw(&call, "selector").value, s("//input[@name='q']"));
    assert_eq!(kw(&call, "text").value, s("{{query}}"));

    let call = ok("press_key(key='tab')");
    assert_eq!((call.name.as_str(), &call.args[0].value), ("press_key", &s("tab")));
    let call = ok("press_key('enter')");
    assert_eq!(call.args[0].keyword, None);
    assert_eq!(call.args[0].value, s("enter"));
    assert_eq!(one("wait(seconds=5)"), Literal::Int(5));
    assert_eq!(one("wait(2.5)"), Literal::Float(2.5));
    let call = ok("scroll('down', 300)");
    assert_eq!(call.args.iter().map(|a| a.value.clone()).collect::<Vec<_>>(), [s("down"), Literal::Int(300)]);
    assert_eq!(one("navigate_to(\"https://x.y/?a=1&b=2\")"), s("https://x.y/?a=1&b=2"));
    assert_eq!(one("save_html(filename=None)"), Literal::None);
}

#[test]
fn escaped_quote_and_coordinates() {
    let call = ok(CLICK_ITS_OK);
    assert_eq!(kw(&call, "selector").value, s(r#"//button[text()="It's ok"]"#));
    assert_eq!(kw(&call, "coordinates").value, Literal::Tuple(vec![Literal::Int(120), Literal::Float(45.5)]));
    let coords = kw(&call, "coordinates");
    assert_eq!(coords.value_span, Span { start: at(CLICK_ITS_OK, "(120"), end: CLICK_ITS_OK.len() - 1 });
}

#[test]
fn names_whitespace_and_trailing_punctuation() {
    let call = ok("  click()  ");
    assert_eq!((call.name.as_str(), call.args.len(), call.name_span), ("click", 0, Span { start: 2, end: 7 }));
    assert!(ok("click();").args.is_empty());
    assert!(ok("click() ; ").args.is_empty());
    let call = ok("self.click(selector='#a')");
    assert_eq!((call.name.as_str(), call.name_span), ("click", Span { start: 5, end: 10 }));
    let call = ok("browser . click ('x')");
    assert_eq!((call.name.as_str(), call.name_span), ("click", Span { start: 10, end: 15 }));
    assert_eq!(one("wait(5,)"), Literal::Int(5));
    let call = ok("click(\n  by='xpath',\n  selector='//a'\n)");
    assert_eq!(call.args[1].span, Span { start: 23, end: 37 });
    assert_eq!(ok("click(\u{a0}by='x'\u{a0})").args[0].span, Span { start: 7, end: 13 });
    let call = ok("f(a = 1)");
    assert_eq!((call.args[0].span, call.args[0].value_span), (Span { start: 2, end: 7 }, Span { start: 6, end: 7 }));
    assert_eq!(ok("_private_1(_x=1)").name, "_private_1");
}

#[test]
fn numbers() {
    assert_eq!(one("f(x=-5)"), Literal::Int(-5));
    assert_eq!(one("f(+3)"), Literal::Int(3));
    assert_eq!(one("f(- 2.5)"), Literal::Float(-2.5));
    assert_eq!(one("f(--5)"), Literal::Int(5));
    assert_eq!(one("f(-+-5)"), Literal::Int(5));
    let ints: Vec<_> = ok("f(0x1F, 0o17, 0b101, 1_000_000, 0x_ff, 0XFF)").args.into_iter().map(|a| a.value).collect();
    assert_eq!(ints, [31, 15, 5, 1_000_000, 255, 255].map(Literal::Int));
    let floats: Vec<_> =
        ok("f(.5, 5., 1e3, 1.5E-3, 1_0.2_5, 1.e2, 0.0, 00.5, 0e0, 1E+2)").args.into_iter().map(|a| a.value).collect();
    assert_eq!(floats, [0.5, 5.0, 1000.0, 0.0015, 10.25, 100.0, 0.0, 0.5, 0.0, 100.0].map(Literal::Float));
    let extremes: Vec<_> =
        ok("f(-9223372036854775808, 9223372036854775807)").args.into_iter().map(|a| a.value).collect();
    assert_eq!(extremes, [Literal::Int(i64::MIN), Literal::Int(i64::MAX)]);
    assert_eq!(one("f(00)"), Literal::Int(0));
    assert_eq!(one("f(-0x10)"), Literal::Int(-16));
    assert_eq!(one("f(1e-400)"), Literal::Float(0.0));
}

#[test]
fn strings_and_escapes() {
    assert_eq!(one("f('a' \"b\" '''c''')"), s("abc"));
    assert_eq!(one(r"f(r'\d+\.')"), s(r"\d+\."));
    let raw: Vec<_> = ok(r#"f(R"\n", u'x', U"y")"#).args.into_iter().map(|a| a.value).collect();
    assert_eq!(raw, [s(r"\n"), s("x"), s("y")]);
    assert_eq!(one(r#"f('\\ \' \" \n \r \t \0 \x41 \u00e9 \U0001F600')"#), s("\\ ' \" \n \r \t \0 A é 😀"));
    let more: Vec<_> = ok(r"f('\d\w', '\101\7', '\a\b\f\v')").args.into_iter().map(|a| a.value).collect();
    assert_eq!(more, [s(r"\d\w"), s("A\x07"), s("\x07\x08\x0c\x0b")]);
    assert_eq!(one("f(\"\"\"a \"b\" ''c''\nline\"\"\")"), s("a \"b\" ''c''\nline"));
    assert_eq!(one("f('''it's''')"), s("it's"));
    assert_eq!(one("f('ab\\\ncd')"), s("abcd"));
    assert_eq!(one("f('ab\\\r\ncd')"), s("abcd"));
    let empties: Vec<_> = ok("f('', \"\", '''''', \"\"\"\"\"\")").args.into_iter().map(|a| a.value).collect();
    assert_eq!(empties, [s(""), s(""), s(""), s("")]);
    assert_eq!(one(r"f(r'a\'b')"), s(r"a\'b"));
    assert_eq!(one("f('#')"), s("#"));
    assert_eq!(one("f('{{name}}')"), s("{{name}}"));
    assert_eq!(one("f('\\u0041\\x2a')"), s("A*"));
    let call = ok("f('a' 'b', c='d' \"e\")");
    assert_eq!((call.args[0].value.clone(), call.args[1].value.clone()), (s("ab"), s("de")));
    assert_eq!(call.args[0].value_span, Span { start: 2, end: 9 });
    assert_eq!(call.args[1].span, Span { start: 11, end: 20 });
}

#[test]
fn containers_and_constants() {
    let values: Vec<_> =
        ok("f((), (1,), (1), [], [1, 'a', [True, None], (2.5,)])").args.into_iter().map(|a| a.value).collect();
    assert_eq!(
        values,
        [
            Literal::Tuple(vec![]),
            Literal::Tuple(vec![Literal::Int(1)]),
            Literal::Int(1),
            Literal::List(vec![]),
            Literal::List(vec![
                Literal::Int(1),
                s("a"),
                Literal::List(vec![Literal::Bool(true), Literal::None]),
                Literal::Tuple(vec![Literal::Float(2.5)]),
            ]),
        ]
    );
    assert_eq!(one("f([1,2,],)"), Literal::List(vec![Literal::Int(1), Literal::Int(2)]));
    assert_eq!(
        one("f(x=(1, (2, [3])))"),
        Literal::Tuple(vec![
            Literal::Int(1),
            Literal::Tuple(vec![Literal::Int(2), Literal::List(vec![Literal::Int(3)])])
        ])
    );
    let constants: Vec<_> = ok("f(True, False, None)").args.into_iter().map(|a| a.value).collect();
    assert_eq!(constants, [Literal::Bool(true), Literal::Bool(false), Literal::None]);
    let deep = format!("f({}1{})", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
    ok(&deep);
}

#[test]
fn spans_are_character_offsets() {
    let src = "type(selector='#é', text='ünïcödé 😀')";
    let call = ok(src);
    assert_eq!(call.args[0].span, Span { start: 5, end: 18 });
    assert_eq!(call.args[0].value_span, Span { start: 14, end: 18 });
    assert_eq!(call.args[1].span, Span { start: 20, end: 36 });
    assert_eq!(call.args[1].value_span, Span { start: 25, end: 36 });
    assert_eq!(call.args[1].value, s("ünïcödé 😀"));
    let chars: Vec<char> = src.chars().collect();
    let text: String = chars[call.args[1].value_span.start..call.args[1].value_span.end].iter().collect();
    assert_eq!(text, "'ünïcödé 😀'");
    // Errors after non-ASCII text also count characters.
    bad("type(text='é', x=y)", 17, "found the name `y`");
    bad("f('😀😀', 'x)", 8, "unterminated string starting at character 8");
}

#[test]
fn type_names_and_display() {
    let names: Vec<_> = [
        s(""),
        Literal::Int(0),
        Literal::Float(0.0),
        Literal::Bool(true),
        Literal::None,
        Literal::Tuple(vec![]),
        Literal::List(vec![]),
    ]
    .iter()
    .map(Literal::type_name)
    .collect();
    assert_eq!(names, ["string", "integer", "float", "boolean", "None", "tuple", "list"]);
    let e = parse_call("click").expect_err("no parenthesis");
    assert_eq!(e.to_string(), format!("{} (at character 5)", e.message));
    let boxed: Box<dyn std::error::Error> = Box::new(e);
    assert!(boxed.to_string().ends_with("(at character 5)"));
}

#[test]
fn rejects_structure_errors() {
    bad("", 0, "empty action");
    bad("   ", 3, "empty action");
    bad("click", 5, "expected '(' after the action name `click`");
    bad("click(", 6, "expected ')' to close the call opened at character 5");
    bad("click(by='x'", 12, "expected ')' to close the call opened at character 5");
    bad("click(by='x',", 13, "expected ')' to close the call opened at character 5");
    bad("f((1, 2)", 8, "expected ')' to close the call opened at character 1");
    bad("f([1, 2)", 7, "expected ',' or ']' after the item, found `)`");
    bad("f([1, 2", 7, "expected ']' to close the list opened at character 2");
    bad("f((1", 4, "expected ')' to close the parenthesis opened at character 2");
    bad("f((1,", 5, "expected ')' to close the tuple opened at character 2");
    bad("f(a=1, 2)", 7, "positional argument after keyword argument");
    bad("f(selector='a', selector='b')", 16, "duplicate keyword argument 'selector'");
    bad("f(x=)", 4, "expected a value after `x=`");
    bad("f(x=", 4, "expected a value after `x=`");
    bad("f(,)", 2, "expected an argument or ')'");
    bad("f(1,,2)", 4, "expected an argument or ')'");
    bad("f([,])", 3, "expected a value or ']'");
    bad("f((,))", 3, "expected a value or ')'");
    bad("f(1 2)", 4, "is a comma missing");
    bad("f('a' 5)", 6, "found a number; is a comma missing");
    bad("f(5 'a')", 4, "found a string; is a comma missing");
    bad("f(True x)", 7, "found `x`; is a comma missing");
    bad("f() g()", 4, "after the end of the call");
    bad("f(x=1)(2)", 6, "after the end of the call");
    bad("f();;", 4, "after the end of the call");
    bad("'click'()", 0, "expected the name of an action, found a string");
    bad("self..click()", 5, "expected a name after `.`");
    bad("click x", 6, "expected '(' after the action name `click`");
    bad("f(True=1)", 2, "`True` cannot be used as a keyword");
    bad("f('by'='x')", 6, "`=` must follow a keyword name");
    bad("f(]", 2, "expected a value");
}

#[test]
fn rejects_code() {
    bad("f(foo)", 2, "only literal values are allowed; found the name `foo`");
    bad("press_key(enter)", 10, "quote it: 'enter'");
    bad("f(x=foo())", 4, "only literal values are allowed; found a call to `foo(...)`");
    bad("f(os.system('rm -rf /'))", 2, "found the attribute access `os.system`");
    bad("f(__import__('os'))", 2, "found a call to `__import__(...)`");
    bad("f(1 + 2)", 4, "only literal values are allowed; found the operator `+`");
    bad("f('a' * 3)", 6, "found the operator `*`");
    bad("f(a==1)", 2, "found the name `a`");
    bad("f(1 == 1)", 4, "found the operator `==`");
    bad("f(x := 1)", 2, "found the name `x`");
    bad("f(1 := 1)", 4, "found the operator `:=`");
    bad("f(lambda: 0)", 2, "found a lambda expression");
    bad("f(not True)", 2, "found the keyword `not`");
    bad("f([1 for i in x])", 5, "found a comprehension (`for`)");
    bad("f(x='a' if y else 'b')", 8, "found a conditional expression (`if`)");
    bad("f(1 and 2)", 4, "found the operator `and`");
    bad("f('a'.upper())", 5, "found the attribute access `.upper`");
    bad("f('abc'[0])", 7, "found indexing or slicing");
    bad("f('abc'(0))", 7, "found a call");
    bad("f({'a': 1})", 2, "dictionaries and sets are not supported");
    bad("f(*args)", 2, "found `*` unpacking");
    bad("f(**kw)", 2, "found `*` unpacking");
    bad("f(~5)", 2, "found the operator `~`");
    bad("f(-'a')", 2, "unary `-` applies only to numbers; found string");
    bad("f(-True)", 2, "unary `-` applies only to numbers; found boolean");
    bad("f(-(5))", 2, "must be followed directly by a number");
    bad("f(-x)", 3, "found the name `x`");
    bad("f(true)", 2, "Python spells it True");
    bad("f(null)", 2, "Python spells it None");
    bad("f(await x)", 2, "found the keyword `await`");
}

#[test]
fn rejects_bad_literals() {
    bad("click(selector='abc)", 15, "unterminated string starting at character 15");
    bad("f('''abc)", 2, "unterminated triple-quoted string starting at character 2");
    bad("f(\"a\nb\")", 2, "unterminated string starting at character 2: a line break");
    bad(r"f('\')", 2, "unterminated string");
    bad(r"f(r'\')", 2, "unterminated string");
    bad("f('abc\\", 2, "unterminated string");
    bad("f(f'{x}')", 2, "f-strings are code, not data");
    bad("f(rf'{x}')", 2, "f-strings are code, not data");
    bad("f(b'x')", 2, "bytes literals");
    bad("f(t'x')", 2, "t-strings are code");
    bad("f(ur'x')", 2, "invalid string prefix `ur`");
    bad("f('a' f'b')", 6, "f-strings are code, not data");
    bad(r"f('\N{BULLET}')", 3, "\\N{...}");
    bad(r"f('ab\x4')", 5, "truncated \\x escape");
    bad(r"f('\u12')", 3, "truncated \\u escape");
    bad(r"f('\U0011FFFF')", 3, "not a Unicode character");
    bad(r"f('\ud800')", 3, "lone surrogate");
    bad("f(007)", 2, "leading zeros");
    bad("f(1__0)", 3, "`_` in a number");
    bad("f(1_)", 3, "`_` in a number");
    bad("f(1._5)", 4, "`_` in a number");
    bad("f(5px)", 2, "invalid number literal `5px`");
    bad("f(1e)", 2, "invalid number literal `1e`");
    bad("f(0x)", 2, "expected hexadecimal digits after `0x`");
    bad("f(0xfg)", 2, "invalid number literal `0xfg`");
    bad("f(3j)", 2, "complex numbers are not supported");
    bad("f(9223372036854775808)", 2, "does not fit in 64 bits");
    bad("f(-9223372036854775809)", 2, "does not fit in 64 bits");
    bad("f(99999999999999999999999999999999999999999)", 2, "too large");
    bad("f(0xffffffffffffffffffffffffffffffffffff)", 2, "too large");
    bad("f(1e999)", 2, "out of range");
}

#[test]
fn nesting_is_limited() {
    let too_deep = format!("f({}1{})", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
    bad(&too_deep, 2 + MAX_DEPTH, "nested more than 32 levels");
    let signs = format!("f({}1)", "-".repeat(100));
    bad(&signs, 2 + MAX_DEPTH, "nested more than 32 levels");
    let parens = format!("f({}", "(".repeat(100_000));
    bad(&parens, 2 + MAX_DEPTH, "nested more than 32 levels");
    let mixed = format!("f({}", "([".repeat(50_000));
    bad(&mixed, 2 + MAX_DEPTH, "nested more than 32 levels");
    // Long but flat inputs are fine and stay fast.
    let many = format!("f({})", (0..20_000).map(|i| format!("k{i}={i}")).collect::<Vec<_>>().join(", "));
    assert_eq!(ok(&many).args.len(), 20_000);
    let long = format!("f('{}')", "é".repeat(200_000));
    assert_eq!(one(&long), s(&"é".repeat(200_000)));
}

/// Checks what any result must satisfy, whatever the input.
fn check_invariants(src: &str) {
    let len = src.chars().count();
    match parse_call(src) {
        Ok(call) => {
            let chars: Vec<char> = src.chars().collect();
            let span_ok = |sp: Span| sp.start <= sp.end && sp.end <= len;
            assert!(span_ok(call.name_span), "{src:?}");
            let name: String = chars[call.name_span.start..call.name_span.end].iter().collect();
            assert_eq!(name, call.name, "{src:?}");
            for arg in &call.args {
                assert!(span_ok(arg.span) && span_ok(arg.value_span), "{src:?}");
                assert!(arg.span.start <= arg.value_span.start && arg.span.end == arg.value_span.end);
            }
        }
        Err(e) => {
            assert!(e.offset <= len, "{src:?}: offset {} beyond {len}", e.offset);
            assert!(!e.message.is_empty());
        }
    }
}

#[test]
fn never_panics_on_noise_or_prefixes() {
    const ALPHABET: &[char] = &[
        'f', 'x', 'r', 'b', 'u', 'N', 'e', 'j', 'T', '_', '0', '1', '9', '(', ')', '[', ']', '{', '}', ',', '=', '\'',
        '"', '\\', ' ', '\n', '.', '-', '+', '*', ';', ':', '#', 'é', '😀', '\u{a0}',
    ];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut parsed = 0;
    for i in 0..5_000 {
        let len = (next() % 48) as usize;
        // Half the inputs start like a call, so the parser gets past the name.
        let mut src = if i % 2 == 0 { String::from("f(") } else { String::new() };
        for _ in 0..len {
            src.push(ALPHABET[(next() % ALPHABET.len() as u64) as usize]);
        }
        check_invariants(&src);
        parsed += usize::from(parse_call(&src).is_ok());
    }
    assert!(parsed > 0, "the noise should occasionally form a valid call");
    for src in VALID {
        let chars: Vec<char> = src.chars().collect();
        for end in 0..=chars.len() {
            let prefix: String = chars[..end].iter().collect();
            check_invariants(&prefix);
            // Cutting a valid call short must still be an error with a position, or a
            // valid call when only trailing whitespace or `;` was cut.
            if let Ok(call) = parse_call(&prefix) {
                assert!(prefix.trim_end().ends_with(')') || prefix.trim_end().ends_with(';'), "{prefix:?}: {call:?}");
            }
        }
    }
}
