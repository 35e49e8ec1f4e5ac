//! Printers of types back into the three type-string syntaxes (inverse of `syntax`).

use super::arena::{Prim, Type, TypeArena, TypeId, VarId, Variance, Wildcard};
use super::syntax::Syntax;

/// Prints a type in the given syntax, in the canonical form of thalia's API JSON.
pub fn print_type(arena: &TypeArena, syntax: Syntax, t: TypeId) -> String {
    let mut out = String::new();
    write_type(arena, syntax, t, &mut out);
    out
}

/// Prints a parameter type, writing varargs as `T...`, `vararg T` or `T*`.
pub fn print_param(arena: &TypeArena, syntax: Syntax, t: TypeId, vararg: bool) -> String {
    let elem = match (vararg, arena.get(t)) {
        (true, Type::Array(e)) => *e,
        _ => return print_type(arena, syntax, t),
    };
    let e = print_type(arena, syntax, elem);
    match syntax {
        Syntax::Java => format!("{e}..."),
        Syntax::Kotlin => format!("vararg {e}"),
        Syntax::Scala => format!("{e}*"),
    }
}

/// Prints a type-parameter declaration with its modifiers and bounds.
pub fn print_type_param(arena: &TypeArena, syntax: Syntax, v: VarId) -> String {
    let decl = arena.var(v);
    let name = arena.name(decl.name);
    let mut out = String::new();
    match syntax {
        Syntax::Java => {
            out.push_str(name);
            for (i, &b) in decl.upper.iter().enumerate() {
                out.push_str(if i == 0 { " extends " } else { " & " });
                write_type(arena, syntax, b, &mut out);
            }
        }
        Syntax::Kotlin => {
            if decl.reified {
                out.push_str("reified ");
            }
            match decl.variance {
                Variance::Covariant => out.push_str("out "),
                Variance::Contravariant => out.push_str("in "),
                Variance::Invariant => {}
            }
            out.push_str(name);
            if let Some(&b) = decl.upper.first() {
                out.push_str(" : ");
                write_type(arena, syntax, b, &mut out);
            }
        }
        Syntax::Scala => {
            match decl.variance {
                Variance::Covariant => out.push('+'),
                Variance::Contravariant => out.push('-'),
                Variance::Invariant => {}
            }
            out.push_str(name);
            if let Some(l) = decl.lower {
                out.push_str(" >: ");
                write_type(arena, syntax, l, &mut out);
            }
            if let Some(&b) = decl.upper.first() {
                out.push_str(" <: ");
                write_type(arena, syntax, b, &mut out);
            }
        }
    }
    out
}

fn write_list(arena: &TypeArena, syntax: Syntax, ts: &[TypeId], sep: &str, out: &mut String) {
    for (i, &t) in ts.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        write_type(arena, syntax, t, out);
    }
}

/// True when a Kotlin type must be parenthesised before `?` or `.(`.
fn kotlin_needs_parens(arena: &TypeArena, t: TypeId) -> bool {
    matches!(arena.get(t), Type::Function { .. } | Type::Nullable(_))
}

fn write_type(arena: &TypeArena, syntax: Syntax, t: TypeId, out: &mut String) {
    match arena.get(t) {
        Type::Prim(p) => match syntax {
            Syntax::Java => out.push_str(p.keyword()),
            Syntax::Kotlin => out.push_str(kotlin_prim(*p)),
            Syntax::Scala => out.push_str(scala_prim(*p)),
        },
        Type::Class { name, args } => {
            let name = arena.name(*name);
            if syntax == Syntax::Scala
                && args.len() >= 2
                && is_tuple(name, args.len())
                && !args
                    .iter()
                    .any(|&a| matches!(arena.get(a), Type::Wildcard(_)))
            {
                out.push('(');
                write_list(arena, syntax, args, ", ", out);
                out.push(')');
                return;
            }
            out.push_str(name);
            if !args.is_empty() {
                let (open, close, sep) = match syntax {
                    Syntax::Java => ('<', '>', ","),
                    Syntax::Kotlin => ('<', '>', ", "),
                    Syntax::Scala => ('[', ']', ", "),
                };
                out.push(open);
                write_list(arena, syntax, args, sep, out);
                out.push(close);
            }
        }
        Type::Var(v) => out.push_str(arena.var_name(*v)),
        Type::Applied { head, args } => {
            out.push_str(arena.var_name(*head));
            out.push('[');
            write_list(arena, syntax, args, ", ", out);
            out.push(']');
        }
        Type::Wildcard(w) => {
            let (star, ext, sup) = match syntax {
                Syntax::Java => ("?", "? extends ", "? super "),
                Syntax::Kotlin => ("*", "out ", "in "),
                Syntax::Scala => ("_", "_ <: ", "_ >: "),
            };
            match w {
                Wildcard::Star => out.push_str(star),
                Wildcard::Extends(b) => {
                    out.push_str(ext);
                    write_type(arena, syntax, *b, out);
                }
                Wildcard::Super(b) => {
                    out.push_str(sup);
                    write_type(arena, syntax, *b, out);
                }
            }
        }
        Type::Array(e) => match syntax {
            Syntax::Java => {
                write_type(arena, syntax, *e, out);
                out.push_str("[]");
            }
            Syntax::Kotlin => {
                out.push_str("kotlin.Array<");
                write_type(arena, syntax, *e, out);
                out.push('>');
            }
            Syntax::Scala => {
                out.push_str("scala.Array[");
                write_type(arena, syntax, *e, out);
                out.push(']');
            }
        },
        Type::Nullable(e) => match syntax {
            Syntax::Kotlin => {
                let paren = kotlin_needs_parens(arena, *e);
                if paren {
                    out.push('(');
                }
                write_type(arena, syntax, *e, out);
                if paren {
                    out.push(')');
                }
                out.push('?');
            }
            _ => write_type(arena, syntax, *e, out),
        },
        Type::Function {
            receiver,
            params,
            ret,
            suspend,
        } => match syntax {
            Syntax::Scala => {
                out.push('(');
                write_list(arena, syntax, params, ", ", out);
                out.push_str(") => ");
                write_type(arena, syntax, *ret, out);
            }
            _ => {
                if *suspend {
                    out.push_str("suspend ");
                }
                if let Some(r) = receiver {
                    let paren = kotlin_needs_parens(arena, *r);
                    if paren {
                        out.push('(');
                    }
                    write_type(arena, syntax, *r, out);
                    if paren {
                        out.push(')');
                    }
                    out.push('.');
                }
                out.push('(');
                write_list(arena, syntax, params, ", ", out);
                out.push_str(") -> ");
                write_type(arena, syntax, *ret, out);
            }
        },
        Type::ByName(e) => {
            out.push_str("=> ");
            write_type(arena, syntax, *e, out);
        }
        Type::Top => out.push_str(match syntax {
            Syntax::Java => "java.lang.Object",
            Syntax::Kotlin => "kotlin.Any?",
            Syntax::Scala => "scala.Any",
        }),
        Type::Bottom => out.push_str(match syntax {
            Syntax::Java => "java.lang.Void",
            Syntax::Kotlin => "kotlin.Nothing",
            Syntax::Scala => "scala.Nothing",
        }),
    }
}

fn is_tuple(name: &str, n: usize) -> bool {
    name.strip_prefix("scala.Tuple")
        .and_then(|k| k.parse::<usize>().ok())
        == Some(n)
}

fn kotlin_prim(p: Prim) -> &'static str {
    match p {
        Prim::Boolean => "kotlin.Boolean",
        Prim::Byte => "kotlin.Byte",
        Prim::Char => "kotlin.Char",
        Prim::Short => "kotlin.Short",
        Prim::Int => "kotlin.Int",
        Prim::Long => "kotlin.Long",
        Prim::Float => "kotlin.Float",
        Prim::Double => "kotlin.Double",
        Prim::Void => "kotlin.Unit",
    }
}

fn scala_prim(p: Prim) -> &'static str {
    match p {
        Prim::Boolean => "scala.Boolean",
        Prim::Byte => "scala.Byte",
        Prim::Char => "scala.Char",
        Prim::Short => "scala.Short",
        Prim::Int => "scala.Int",
        Prim::Long => "scala.Long",
        Prim::Float => "scala.Float",
        Prim::Double => "scala.Double",
        Prim::Void => "scala.Unit",
    }
}
