//! `{{#if}}` and `{{#unless}}` that, like every other expression in strict
//! mode, refuse a field the data does not have: Handlebars' own treat a
//! misspelt `{{#if contxt}}` as false, and a course's override would drop
//! its context line without a word.

use handlebars::{
    Context, Handlebars, Helper, HelperDef, HelperResult, JsonTruthy, Output, RenderContext,
    RenderError, RenderErrorReason, Renderable,
};

#[derive(Clone, Copy)]
struct StrictIf {
    positive: bool,
}

impl HelperDef for StrictIf {
    fn call<'reg: 'rc, 'rc>(
        &self,
        h: &Helper<'rc>,
        r: &'reg Handlebars<'reg>,
        ctx: &'rc Context,
        rc: &mut RenderContext<'reg, 'rc>,
        out: &mut dyn Output,
    ) -> HelperResult {
        let name = if self.positive { "if" } else { "unless" };
        let param = h
            .param(0)
            .ok_or(RenderErrorReason::ParamNotFoundForIndex(name, 0))?;
        if param.is_value_missing() {
            return Err(RenderError::strict_error(param.relative_path()));
        }
        let truthy = param.value().is_truthy(false);
        let tmpl = if truthy == self.positive {
            h.template()
        } else {
            h.inverse()
        };
        match tmpl {
            Some(t) => t.render(r, ctx, rc, out),
            None => Ok(()),
        }
    }
}

/// Replaces the registry's `if` and `unless` with the strict ones.
pub(super) fn register(r: &mut Handlebars<'_>) {
    r.register_helper("if", Box::new(StrictIf { positive: true }));
    r.register_helper("unless", Box::new(StrictIf { positive: false }));
}
