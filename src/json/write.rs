//! A small JSON writer: the GUI's API answers and the match runner's JSON lines.

use std::fmt::Write;

/// Appends `text` to `out` as a JSON string literal.
pub fn string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // `<` too, so that no answer can ever close a script element it is pasted into.
            c if (c as u32) < 0x20 || c == '<' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `text` as a JSON string literal.
pub fn quoted(text: &str) -> String {
    let mut s = String::with_capacity(text.len() + 2);
    string(&mut s, text);
    s
}

/// A JSON number for a finite float (`null` otherwise), with four decimals.
pub fn number(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.4}")
    } else {
        "null".into()
    }
}

/// An object built field by field.
pub struct Object {
    out: String,
}

impl Default for Object {
    fn default() -> Self {
        Object::new()
    }
}

impl Object {
    /// An empty object.
    pub fn new() -> Object {
        Object {
            out: String::from("{"),
        }
    }

    fn key(&mut self, key: &str) -> &mut String {
        if self.out.len() > 1 {
            self.out.push(',');
        }
        string(&mut self.out, key);
        self.out.push(':');
        &mut self.out
    }

    /// Adds a field whose value is already JSON.
    pub fn raw(mut self, key: &str, json: &str) -> Object {
        self.key(key).push_str(json);
        self
    }

    /// Adds a string field.
    pub fn str(mut self, key: &str, value: &str) -> Object {
        let out = self.key(key);
        string(out, value);
        self
    }

    /// Adds a string field, or `null`.
    pub fn opt_str(self, key: &str, value: Option<&str>) -> Object {
        match value {
            Some(v) => self.str(key, v),
            None => self.raw(key, "null"),
        }
    }

    /// Adds an integer field.
    pub fn int(mut self, key: &str, value: impl Into<i128>) -> Object {
        let _ = write!(self.key(key), "{}", value.into());
        self
    }

    /// Adds a float field (four decimals).
    pub fn float(self, key: &str, value: f64) -> Object {
        self.raw(key, &number(value))
    }

    /// Adds a boolean field.
    pub fn bool(self, key: &str, value: bool) -> Object {
        self.raw(key, if value { "true" } else { "false" })
    }

    /// The finished object.
    pub fn finish(mut self) -> String {
        self.out.push('}');
        self.out
    }
}

/// A JSON array of already-JSON items.
pub fn array<I: IntoIterator<Item = String>>(items: I) -> String {
    let mut out = String::from("[");
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&item);
    }
    out.push(']');
    out
}

/// A JSON array of strings.
pub fn string_array<I: IntoIterator<Item = S>, S: AsRef<str>>(items: I) -> String {
    array(items.into_iter().map(|s| quoted(s.as_ref())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_nesting() {
        assert_eq!(quoted("a\"b\\c\n</script>"), r#""a\"b\\c\n\u003c/script>""#);
        assert_eq!(quoted("\u{1}é"), "\"\\u0001é\"");
        let o = Object::new()
            .str("s", "x")
            .int("n", -3i64)
            .float("f", 0.5)
            .float("nan", f64::NAN)
            .bool("b", true)
            .opt_str("none", None)
            .raw("a", &string_array(["p", "q"]))
            .finish();
        assert_eq!(
            o,
            r#"{"s":"x","n":-3,"f":0.5000,"nan":null,"b":true,"none":null,"a":["p","q"]}"#
        );
        assert_eq!(array(Vec::<String>::new()), "[]");
    }
}
