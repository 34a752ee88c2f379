//! A job's options as a command line: a spec whose JSON fields are its options (held as the
//! words the command line writes, through [`text`]) gives back the options that parse into
//! it ([`to_args`]), so the command a shard or a Slurm task runs cannot leave one out.

use serde::Serialize;

/// The options that parse back into `spec`, in the order of its fields (a flattened field's
/// own fields where it stands): each JSON field `name` is `--name value` (`_` written `-`;
/// `--name=value` when the value starts with `-`, so it stays a value), `true` a bare
/// `--name`, `false` and `null` nothing.
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Spec { games: Option<u32>, compare_sil: bool, board: String, seed: Option<u64> }
/// let spec = Spec { games: Some(3), compare_sil: true, board: "-x".into(), seed: None };
/// assert_eq!(
///     shards::options::to_args(&spec).unwrap(),
///     ["--games", "3", "--compare-sil", "--board=-x"]
/// );
/// ```
pub fn to_args(spec: &impl Serialize) -> Result<Vec<String>, serde_json::Error> {
    use serde_json::Value;
    // Through the text, whose fields keep the struct's order (a `Value`'s map sorts them).
    let Fields(fields) = serde_json::from_str(&serde_json::to_string(spec)?)?;
    let mut args = Vec::new();
    for (name, value) in fields {
        let option = format!("--{}", name.replace('_', "-"));
        let text = match value {
            Value::Null | Value::Bool(false) => continue,
            Value::Bool(true) => {
                args.push(option);
                continue;
            }
            Value::String(text) => text,
            other => other.to_string(),
        };
        if text.starts_with('-') {
            args.push(format!("{option}={text}"));
        } else {
            args.extend([option, text]);
        }
    }
    Ok(args)
}

/// A JSON object's fields in the order they are written.
struct Fields(Vec<(String, serde_json::Value)>);

impl<'de> serde::Deserialize<'de> for Fields {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Fields, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Fields;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a spec's fields")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Fields, A::Error> {
                let mut fields = Vec::new();
                while let Some(field) = map.next_entry()? {
                    fields.push(field);
                }
                Ok(Fields(fields))
            }
        }
        deserializer.deserialize_map(Visitor)
    }
}

/// Options that are words on the command line (`--probe virtual`, `--window 85..100`) held as
/// those words in a spec's JSON, through their `Display` and `FromStr`: the spec's JSON is
/// then the command line's values, and [`to_args`] reads it back as one.
pub mod text {
    use std::fmt::Display;
    use std::str::FromStr;

    use serde::{Deserialize, Deserializer, Serializer};

    /// A value as its words.
    pub fn serialize<T: Display, S: Serializer>(
        value: &T,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_str(value)
    }

    /// A value read from its words.
    pub fn deserialize<'de, T, D>(deserializer: D) -> Result<T, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        String::deserialize(deserializer)?
            .parse()
            .map_err(serde::de::Error::custom)
    }

    /// An optional value as its words, or `null`.
    pub mod option {
        use super::*;

        /// `null`, or the value's words.
        pub fn serialize<T: Display, S: Serializer>(
            value: &Option<T>,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            match value {
                Some(value) => serializer.collect_str(value),
                None => serializer.serialize_none(),
            }
        }

        /// `null`, or a value read from its words.
        pub fn deserialize<'de, T, D>(deserializer: D) -> Result<Option<T>, D::Error>
        where
            T: FromStr,
            T::Err: Display,
            D: Deserializer<'de>,
        {
            Option::<String>::deserialize(deserializer)?
                .map(|text| text.parse().map_err(serde::de::Error::custom))
                .transpose()
        }
    }
}
