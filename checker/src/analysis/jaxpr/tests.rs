//! Equation lines as JAX prints them, Pallas' state primitives included.

use super::parse_equation;

/// (line, the primitive it is an equation of, or `None`)
fn check(cases: &[(&str, Option<&str>)]) {
    for &(l, want) in cases {
        assert_eq!(parse_equation(l).map(|e| e.primitive), want, "{l}");
    }
}

#[test]
fn equations_and_ref_effects() {
    check(&[
        ("    f:f32[32,256] = mul e 2.0:f32[]", Some("mul")),
        ("          e:f32[32,256] <- c[...]", Some("get")),
        (
            "                p:f32[128,128] <- j[:,o:o+128]",
            Some("get"),
        ),
        ("          h:f32[32,256], d[...] <- d[...], g", Some("swap")),
        ("          d[...] <- g", Some("swap")),
        ("          d[...] += g", Some("addupdate")),
        ("          d[0:8] += g", Some("addupdate")),
        // Not equations: binders, results, parameters, HLO, truncations.
        ("  in (b,) }", None),
        ("      input_output_aliases=((0, 0),)", None),
        (
            "      jaxpr={ lambda ; c:Ref<default>{f32[32,256]} d:Ref<default>{f32[32,256]}. let",
            None,
        ),
        ("x.1 = f32[8]{0} parameter(0)", None),
        ("          e:f32[32,256] <-", None),
        ("          h:f32[32,256], d[...] <- ", None),
        ("          h:f32[32,256], d[...] = d", None),
        ("          a:f32[8] b:f32[8] <- c[...]", None),
        ("<- c", None),
        ("", None),
    ]);
}

#[test]
fn the_kernel_jaxpr_has_four_equations() {
    let text = "{ lambda ; a:f32[512,512]. let\n    b:f32[512,512] = pallas_call[\n      jaxpr={ lambda ; c:Ref<default>{f32[32,256]} d:Ref<default>{f32[32,256]}. let\n          e:f32[32,256] <- c[...]\n          f:f32[32,256] = mul e 2.0:f32[]\n          g:f32[32,256] = add f 1.0:f32[]\n          h:f32[32,256], d[...] <- d[...], g\n        in () }\n      name=None\n    ] a\n  in (b,) }\n";
    let a = crate::analyze(text);
    let inside: Vec<&str> = a
        .equations
        .iter()
        .filter(|e| e.depth > 0)
        .map(|e| e.primitive.as_str())
        .collect();
    assert_eq!(inside, ["get", "mul", "add", "swap"]);
    assert_eq!(a.equations.iter().filter(|e| e.depth == 0).count(), 1);
}
