//! The one value type both drivers bind and read: [`Val`] (borrowed), with [`ToValue`] for
//! parameters and [`FromValue`] for columns. SQLite's dynamic types and PostgreSQL's static ones
//! meet here: a parameter is converted to the type PostgreSQL inferred for it, and a column of any
//! common PostgreSQL type (integers, floats, `numeric`, `bool`, text, `json`, `bytea`) reads back as
//! the SQLite storage class it mirrors.

use std::error::Error;

use bytes::BytesMut;
use postgres_types::{FromSql, IsNull, ToSql, Type};

/// One SQL value, borrowed from a parameter or a row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Val<'a> {
    /// SQL NULL.
    Null,
    /// An integer (SQLite INTEGER; PostgreSQL int2/int4/int8/bool).
    Int(i64),
    /// A float (SQLite REAL; PostgreSQL float4/float8/numeric with a fraction).
    Real(f64),
    /// Text.
    Text(&'a str),
    /// Bytes (SQLite BLOB; PostgreSQL bytea).
    Blob(&'a [u8]),
}

impl Val<'_> {
    fn kind(&self) -> &'static str {
        match self {
            Val::Null => "NULL",
            Val::Int(_) => "integer",
            Val::Real(_) => "real",
            Val::Text(_) => "text",
            Val::Blob(_) => "blob",
        }
    }
}

/// A Rust value usable as a statement parameter.
pub trait ToValue {
    /// The SQL value.
    fn to_val(&self) -> Val<'_>;
}

macro_rules! int_to_value {
    ($($t:ty),*) => {$(
        impl ToValue for $t {
            fn to_val(&self) -> Val<'_> {
                // Values above i64::MAX do not occur in the store (ids, sizes, times in ms).
                Val::Int(i64::try_from(*self).unwrap_or(i64::MAX))
            }
        }
    )*};
}
int_to_value!(i8, i16, i32, i64, u8, u16, u32, u64, usize, isize);

impl ToValue for bool {
    fn to_val(&self) -> Val<'_> {
        Val::Int(i64::from(*self))
    }
}
impl ToValue for f64 {
    fn to_val(&self) -> Val<'_> {
        Val::Real(*self)
    }
}
impl ToValue for f32 {
    fn to_val(&self) -> Val<'_> {
        Val::Real(f64::from(*self))
    }
}
impl ToValue for str {
    fn to_val(&self) -> Val<'_> {
        Val::Text(self)
    }
}
impl ToValue for String {
    fn to_val(&self) -> Val<'_> {
        Val::Text(self)
    }
}
impl ToValue for [u8] {
    fn to_val(&self) -> Val<'_> {
        Val::Blob(self)
    }
}
impl ToValue for Vec<u8> {
    fn to_val(&self) -> Val<'_> {
        Val::Blob(self)
    }
}
impl<T: ToValue + ?Sized> ToValue for &T {
    fn to_val(&self) -> Val<'_> {
        (**self).to_val()
    }
}
impl<T: ToValue> ToValue for Option<T> {
    fn to_val(&self) -> Val<'_> {
        self.as_ref().map_or(Val::Null, ToValue::to_val)
    }
}
impl ToValue for Val<'_> {
    fn to_val(&self) -> Val<'_> {
        *self
    }
}

/// A Rust value a column can be read into.
pub trait FromValue: Sized {
    /// Converts, or says what was found instead.
    fn from_val(v: Val<'_>) -> Result<Self, String>;
}

fn wrong<T>(want: &str, v: Val<'_>) -> Result<T, String> {
    Err(format!("expected {want}, found {}", v.kind()))
}

fn as_int(v: Val<'_>) -> Result<i64, String> {
    match v {
        Val::Int(i) => Ok(i),
        // json_extract on PostgreSQL yields text; SQLite would have yielded the number.
        Val::Text(t) => t.trim().parse().or_else(|_| wrong("integer", v)),
        Val::Real(f) if f.fract() == 0.0 => Ok(f as i64),
        _ => wrong("integer", v),
    }
}

macro_rules! int_from_value {
    ($($t:ty),*) => {$(
        impl FromValue for $t {
            fn from_val(v: Val<'_>) -> Result<Self, String> {
                let i = as_int(v)?;
                <$t>::try_from(i).map_err(|_| format!("integer {i} out of range for {}", stringify!($t)))
            }
        }
    )*};
}
int_from_value!(i16, i32, i64, u8, u16, u32, u64, usize);

impl FromValue for bool {
    fn from_val(v: Val<'_>) -> Result<Self, String> {
        Ok(as_int(v)? != 0)
    }
}
impl FromValue for f64 {
    fn from_val(v: Val<'_>) -> Result<Self, String> {
        match v {
            Val::Real(f) => Ok(f),
            Val::Int(i) => Ok(i as f64),
            Val::Text(t) => t.trim().parse().or_else(|_| wrong("real", v)),
            _ => wrong("real", v),
        }
    }
}
impl FromValue for f32 {
    fn from_val(v: Val<'_>) -> Result<Self, String> {
        f64::from_val(v).map(|f| f as f32)
    }
}
impl FromValue for String {
    fn from_val(v: Val<'_>) -> Result<Self, String> {
        match v {
            Val::Text(t) => Ok(t.to_string()),
            Val::Int(i) => Ok(i.to_string()),
            Val::Real(f) => Ok(f.to_string()),
            _ => wrong("text", v),
        }
    }
}
impl FromValue for Vec<u8> {
    fn from_val(v: Val<'_>) -> Result<Self, String> {
        match v {
            Val::Blob(b) => Ok(b.to_vec()),
            Val::Text(t) => Ok(t.as_bytes().to_vec()),
            _ => wrong("blob", v),
        }
    }
}
impl<T: FromValue> FromValue for Option<T> {
    fn from_val(v: Val<'_>) -> Result<Self, String> {
        match v {
            Val::Null => Ok(None),
            v => T::from_val(v).map(Some),
        }
    }
}

impl<'a> From<rusqlite::types::ValueRef<'a>> for Val<'a> {
    fn from(v: rusqlite::types::ValueRef<'a>) -> Self {
        use rusqlite::types::ValueRef as R;
        match v {
            R::Null => Val::Null,
            R::Integer(i) => Val::Int(i),
            R::Real(f) => Val::Real(f),
            // SQLite text is UTF-8 unless someone wrote bytes into it; keep them as bytes then.
            R::Text(t) => std::str::from_utf8(t).map_or(Val::Blob(t), Val::Text),
            R::Blob(b) => Val::Blob(b),
        }
    }
}

impl rusqlite::ToSql for Val<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef as R};
        Ok(ToSqlOutput::Borrowed(match *self {
            Val::Null => R::Null,
            Val::Int(i) => R::Integer(i),
            Val::Real(f) => R::Real(f),
            Val::Text(t) => R::Text(t.as_bytes()),
            Val::Blob(b) => R::Blob(b),
        }))
    }
}

type BoxErr = Box<dyn Error + Sync + Send>;

fn mismatch(v: &Val<'_>, ty: &Type) -> BoxErr {
    format!(
        "cannot bind a {} value to a PostgreSQL {ty} parameter",
        v.kind()
    )
    .into()
}

impl ToSql for Val<'_> {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxErr> {
        let int = |v: &Val<'_>| -> Result<i64, BoxErr> { as_int(*v).map_err(|_| mismatch(v, ty)) };
        match (*self, ty) {
            (Val::Null, _) => Ok(IsNull::Yes),
            (_, &Type::INT8) => int(self)?.to_sql(ty, out),
            (_, &Type::INT4) => i32::try_from(int(self)?)?.to_sql(ty, out),
            (_, &Type::INT2) => i16::try_from(int(self)?)?.to_sql(ty, out),
            (_, &Type::BOOL) => (int(self)? != 0).to_sql(ty, out),
            (Val::Int(i), &Type::FLOAT8) => (i as f64).to_sql(ty, out),
            (Val::Real(f), &Type::FLOAT8) => f.to_sql(ty, out),
            (Val::Int(i), &Type::FLOAT4) => (i as f32).to_sql(ty, out),
            (Val::Real(f), &Type::FLOAT4) => (f as f32).to_sql(ty, out),
            (Val::Blob(b), &Type::BYTEA) => b.to_sql(ty, out),
            (Val::Text(t), &Type::BYTEA) => t.as_bytes().to_sql(ty, out),
            (v, &Type::TEXT | &Type::VARCHAR | &Type::BPCHAR | &Type::NAME | &Type::UNKNOWN) => {
                match v {
                    Val::Text(t) => t.to_sql(ty, out),
                    Val::Int(i) => i.to_string().as_str().to_sql(ty, out),
                    Val::Real(f) => f.to_string().as_str().to_sql(ty, out),
                    _ => Err(mismatch(&v, ty)),
                }
            }
            (Val::Text(t), &Type::JSON) => {
                out.extend_from_slice(t.as_bytes());
                Ok(IsNull::No)
            }
            (Val::Text(t), &Type::JSONB) => {
                out.extend_from_slice(&[1]);
                out.extend_from_slice(t.as_bytes());
                Ok(IsNull::No)
            }
            (v, _) => Err(mismatch(&v, ty)),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    postgres_types::to_sql_checked!();
}

impl<'a> FromSql<'a> for Val<'a> {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, BoxErr> {
        Ok(match *ty {
            Type::INT8 => Val::Int(i64::from_sql(ty, raw)?),
            Type::INT4 => Val::Int(i32::from_sql(ty, raw)?.into()),
            Type::INT2 => Val::Int(i16::from_sql(ty, raw)?.into()),
            Type::OID => Val::Int(u32::from_sql(ty, raw)?.into()),
            Type::BOOL => Val::Int(bool::from_sql(ty, raw)?.into()),
            Type::FLOAT8 => Val::Real(f64::from_sql(ty, raw)?),
            Type::FLOAT4 => Val::Real(f32::from_sql(ty, raw)?.into()),
            Type::NUMERIC => numeric(raw)?,
            Type::BYTEA => Val::Blob(raw),
            Type::JSONB => Val::Text(std::str::from_utf8(raw.get(1..).unwrap_or_default())?),
            _ => Val::Text(std::str::from_utf8(raw)?),
        })
    }

    fn from_sql_null(_: &Type) -> Result<Self, BoxErr> {
        Ok(Val::Null)
    }

    fn accepts(_: &Type) -> bool {
        true
    }
}

/// Decodes PostgreSQL's binary `numeric` (what `SUM`/`AVG` of integers return): an integer when
/// it has no fraction and fits, else a float.
fn numeric(raw: &[u8]) -> Result<Val<'static>, BoxErr> {
    let word = |i: usize| -> Result<i16, BoxErr> {
        raw.get(i..i + 2)
            .map(|b| i16::from_be_bytes([b[0], b[1]]))
            .ok_or_else(|| "truncated numeric".into())
    };
    let (ndigits, weight, sign, dscale) = (word(0)?, word(2)?, word(4)? as u16, word(6)?);
    if sign == 0xC000 {
        return Ok(Val::Real(f64::NAN));
    }
    let mut int: i128 = 0;
    let mut float = 0f64;
    let mut exact = dscale == 0;
    for i in 0..ndigits.max(0) as usize {
        let d = word(8 + 2 * i)?;
        let power = i32::from(weight) - i as i32;
        float += f64::from(d) * 10000f64.powi(power);
        if power < 0 {
            exact &= d == 0;
        } else if exact {
            match 10000i128
                .checked_pow(power as u32)
                .and_then(|p| p.checked_mul(i128::from(d)))
                .and_then(|v| v.checked_add(int))
            {
                Some(v) => int = v,
                None => exact = false,
            }
        }
    }
    let neg = sign == 0x4000;
    if exact {
        if let Ok(i) = i64::try_from(if neg { -int } else { int }) {
            return Ok(Val::Int(i));
        }
    }
    Ok(Val::Real(if neg { -float } else { float }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(ndigits: i16, weight: i16, sign: u16, dscale: i16, digits: &[i16]) -> Vec<u8> {
        let mut v = Vec::new();
        for w in [ndigits, weight, sign as i16, dscale] {
            v.extend_from_slice(&w.to_be_bytes());
        }
        for d in digits {
            v.extend_from_slice(&d.to_be_bytes());
        }
        v
    }

    #[test]
    fn numeric_decodes_integers_exactly_and_fractions_as_floats() {
        // 12345678 = 1234 * 10000 + 5678
        assert_eq!(
            numeric(&num(2, 1, 0, 0, &[1234, 5678])).unwrap(),
            Val::Int(12345678)
        );
        assert_eq!(numeric(&num(1, 0, 0x4000, 0, &[7])).unwrap(), Val::Int(-7));
        assert_eq!(numeric(&num(0, 0, 0, 0, &[])).unwrap(), Val::Int(0));
        // 20000 = 2 * 10000^1, stored with one digit
        assert_eq!(numeric(&num(1, 1, 0, 0, &[2])).unwrap(), Val::Int(20000));
        // 1.5 = 1 + 5000 * 10000^-1
        assert_eq!(
            numeric(&num(2, 0, 0, 1, &[1, 5000])).unwrap(),
            Val::Real(1.5)
        );
        assert!(numeric(&[0, 1]).is_err());
    }

    #[test]
    fn lenient_reads_mirror_sqlite_affinity() {
        assert_eq!(i64::from_val(Val::Text(" 42")).unwrap(), 42);
        assert_eq!(u32::from_val(Val::Int(7)).unwrap(), 7);
        assert!(u32::from_val(Val::Int(-1)).is_err());
        assert!(i64::from_val(Val::Text("x")).is_err());
        assert_eq!(Option::<String>::from_val(Val::Null).unwrap(), None);
        assert!(bool::from_val(Val::Int(1)).unwrap());
        assert_eq!(String::from_val(Val::Int(3)).unwrap(), "3");
    }
}
