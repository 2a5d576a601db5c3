//! What is this dump, and what in it proves so?
//!
//! [`analyze`] reads the text of a JAX or XLA dump (a whole file or an excerpt
//! cut from one) and answers with an [`Analysis`]: its [`Kind`] (jaxpr,
//! StableHLO, HLO before or after XLA's optimizations), the compiler
//! [`Backend`] a compiled HLO module was built for, every clue used
//! ([`Evidence`], each with a line, a column span, a [marker](markers) name and
//! a sentence a learner understands), and an inventory (computations, fusions
//! and the ops fused into each, custom calls, loops, entry parameters, an op
//! histogram, StableHLO functions, jaxpr equations, op provenance).
//!
//! Every exercise, fixture check and grade rests on this answer, so the rule
//! is: decide from what is in the text, and say [`Kind::Unknown`] with a
//! reason when the clues are absent or contradict each other. Layouts alone
//! prove nothing: XLA prints default layouts before optimization too.
//!
//! The parsers are tolerant (they never fail, they skip what they do not
//! understand), run in linear time, never recurse on input nesting and never
//! panic; see `checker/tests/` for the corpus, excerpt-window and fuzz tests.
//!
//! # JSON schema
//!
//! With the `serde` feature, [`Analysis`] serializes to the object that
//! `mdbook-dumplab analyze --json` prints (one per input and line, with a
//! `file` field added in front). The fields below are stable; new fields may
//! be added, none will be renamed or removed. Added since the first
//! release: `dialect`, `backend_basis`, `backend_reason`, `kind_rule`,
//! `unwrapped`; `backend` is now also set for uncompiled and unknown dumps
//! whose text names a backend. Later: `backend` is no longer inferred as
//! `cpu` for a compiled module without a clue; `backend_guess` holds that
//! guess apart (and `backend_basis` is never `inferred`). Later: a hint
//! (`unscheduled-header`, `lowering-printer`) no longer decides the kind:
//! HLO with no proof on either side is `unknown`, and `kind_guess` with
//! `kind_guess_rule` hold what its hints suggest, apart. Later: where the
//! hint is one with no counterexample in any corpus (`unscheduled-header`),
//! the kind is `hlo-unoptimized` and `kind_likely` says it is likely, not
//! proved.
//!
//! | field | type | meaning |
//! |---|---|---|
//! | `kind` | string | `jaxpr`, `stablehlo`, `hlo-unoptimized`, `hlo-optimized` or `unknown` (`stablehlo` is the lowered MLIR module, in either dialect) |
//! | `dialect` | string or null | `stablehlo`, `mhlo` (older JAX's lowered modules), `hlo` or `jaxpr`; null when no family or two families show |
//! | `backend` | string or null | `cpu`, `gpu` or `tpu` only when a clue names one, whatever the kind; null when nothing names one or two backends are named |
//! | `backend_basis` | string or null | `evidence` (a clue names the backend); null when `backend` is |
//! | `backend_reason` | string or null | for compiled HLO with no clue: why no backend is named (`no GPU or TPU clue in a compiled module; ...`); null otherwise |
//! | `backend_guess` | string or null | with `backend_reason`: `cpu`, a guess and never the answer (XLA:CPU often leaves no clue; other backends can print such modules too) |
//! | `reason` | string or null | why the kind is `unknown` (null otherwise); a contradiction names a line of each side; HLO with only hints names each hint's line and the proof that is missing |
//! | `kind_rule` | string or null | for HLO, the proof rule that decided compiled or not (or, with `kind_likely`, the hint rule) (`scheduled`, `compiler-structure`, `sharding-annotation`, ...: see [`rules`]); null otherwise, and always null when `kind` is `unknown` (a hint never decides) |
//! | `kind_guess` | string or null | with `kind` `unknown` for HLO whose hints all point one way: `hlo-unoptimized` (or `hlo-optimized`), a guess and never the answer; null otherwise |
//! | `kind_guess_rule` | string or null | with `kind_guess`: the hint rule that suggests it (`unscheduled-header`, `lowering-printer`) |
//! | `kind_likely` | string or null | where the kind rests on hints alone, by a rule with no counterexample in any corpus the project judges (`unscheduled-header`: a text from the header to `ENTRY` with no compiler work): the sentence `likely, not proved: ..., because ...`; `kind_rule` names that rule; null where proof decided |
//! | `lines` | integer | lines in the input, as pasted |
//! | `unwrapped` | list of `{what, lines, first_line, note}` | damage undone before reading (see [`mod@unwrap`]): `what` is `log-prefix`, `prompt`, `repr` or `wrapped`, `lines` how many pasted lines it touched from `first_line`; empty for clean text |
//! | `entry_fusions` | integer | `fusion` instructions in the entry computation (0 when not HLO) |
//! | `fusions` | list of `{name, kind, ops, in_entry, line, computation}` | every `fusion` instruction; `kind` is `kLoop`, `kInput`, `kOutput`, `kCustom`, ...; `ops` the distinct opcodes of the fused computation in order (no `parameter`, at most 64) |
//! | `evidence` | list of `{line, columns: {start, end}, marker, note}` | clues in line order (at most 64 per marker, 3 for markers found on nearly every line); `line` 1-based, `columns` 1-based character columns, end exclusive; `marker` one of [`markers::marker_names`]. Lines and columns refer to the text as pasted: for a repaired paste, the line a clue's line starts on (all of a repr's on its one line) and the column there (a log prefix counted; escapes inside a repr not) |
//! | `module_name` | string or null | the `HloModule` or MLIR `module @name` |
//! | `pasted_modules` | list of integers | the lines where a module starts (`HloModule`, an MLIR `module`) when there are two or more: several dumps pasted one after another, read as one text; empty for one |
//! | `computations` | list of `{name, line, is_entry, instructions}` | HLO computations |
//! | `entry_computation` | string or null | name of the HLO entry computation |
//! | `custom_calls` | list of `{name, target, line, in_entry}` | HLO `custom-call` instructions and their `custom_call_target` |
//! | `while_loops` | list of `{name, line, condition, body}` | HLO `while` instructions |
//! | `conditionals` | list of `{name, line, branches}` | HLO `conditional` instructions |
//! | `entry_params` | list of `{name, number, shape, layout, line}` | parameters of the entry computation (`layout` like `{1,0:T(8,128)}` or null) |
//! | `op_histogram` | object opcode → count | HLO opcodes, StableHLO op names (`stablehlo.add`) or jaxpr primitives |
//! | `functions` | list of `{name, visibility, line, ops}` | StableHLO/MLIR `func.func`s |
//! | `equations` | list of `{line, primitive, outputs, depth}` | jaxpr equations; `depth` 0 for the top jaxpr, more inside sub-jaxprs |
//! | `provenance` | list of `{line, instruction, source_op}` | the source op of each instruction that names one (`metadata={op_name=...}` in HLO, `loc(...)` in StableHLO); `source_op` indexes `source_ops` |
//! | `kernels` | list of `{name, opcode, kind, line, computation, in_entry}` | the kernels of the computations that launch work (entry, loop conditions and bodies, branches, called computations): `fusion`s, `custom-call`s, `copy`/`copy-start` and other ops doing work on their own; `kind` is `fusion`, `custom-call`, `copy` or `unfused` |
//! | `source_ops` | list of `{op_name, source_file, source_line}` | distinct JAX ops (`jit(f)/sin`) with their source location when printed (HLO `stack_frame_id`s resolved through the `StackFrames` tables) |
//! | `entry_kernels` | integer | how many of `kernels` are in the entry computation (0 when not HLO); added by the command line, not a field of [`Analysis`] |
//!
//! # JSON of `map`
//!
//! `mdbook-dumplab map LOWERED COMPILED --json` prints one object; the
//! playground page reads the same. Fields are stable; new ones may be
//! added, none renamed or removed.
//!
//! | field | type | meaning |
//! |---|---|---|
//! | `lowered_format` | string or null | `stablehlo`, `jaxpr` or `hlo` |
//! | `entry` | string or null | the compiled entry computation |
//! | `lowered_signature`, `compiled_signature` | list of strings or null | entry parameter shapes without layouts (`f32[8,128]`) |
//! | `mismatch` | string or null | why the dumps are of two different functions |
//! | `truncated` | boolean | the walk through called computations stopped at its budget (only hostile texts: kernels sharing huge computations); some kernels' lines may be incomplete |
//! | `kernel_count` | integer | how many rows of `kernels` are kernels (control flow left out), as `entry_kernels` counts them |
//! | `kernels` | list of kernel objects | every instruction of the entry computation that runs work, in run order: the kernels, and control flow (`while`, `conditional`, `call`) with `kernel: false` for the source lines what it calls carries |
//! | `kernels[].kernel` | boolean | `false` for control flow: not a kernel; the kernels of what it calls run on each trip |
//! | `kernels[].name` | string | instruction name without `%` |
//! | `kernels[].kind` | string | `fusion`, `custom-call`, `copy`, `collective`, `loop`, `conditional`, `call`, `async` or `op` |
//! | `kernels[].detail` | string or null | fusion kind (`kLoop`, `kCustom __triton`), custom call target, collective |
//! | `kernels[].opcode`, `line` | string, integer | opcode and 1-based line in the compiled dump |
//! | `kernels[].ops` | list of strings | distinct opcodes inside (no `parameter`) |
//! | `kernels[].shape`, `operand_shapes` | string, list of strings | result and operand shapes (`?` when unknown) |
//! | `kernels[].bytes_read`, `bytes_written` | integer or null | from the operand and result shapes, an upper bound (operands in on-chip memory, scratch buffers and gathered tables count whole); for `copy-start`, the copy alone; null for control flow |
//! | `kernels[].origin` | string, only on a collective | which sharding made it (`collectives::origin::ORIGINS`: `written`, `reduction`, `reshard`, `output-sharding`, `host`, `unknown`): where a collective the partitioner inserted has no source line, the reason it is there |
//! | `kernels[].source_lines` | list of `{file, line}` | where its instructions (and what they call) came from |
//! | `kernels[].lowered_ops` | list of lowered-op objects | the lowered ops it holds |
//! | `lowered_ops` | list of lowered-op objects | every lowered op: `{line, name, op, op_name, source_lines: [{file, line}], kernels: [names]}` |
//! | `source_lines` | list of `{file, line, lowered_ops, kernels}` | every source line either dump names; `lowered_ops` as lowered-op objects, `kernels` as names |
//! | `kernels_without_source` | list of names | kernels whose provenance is lost |
//! | `lowered_without_source` | list of lowered-op objects | lowered ops with no source line |
//! | `unlocated_hint` | string or null | where no lowered op carries a source line at all, what the text lacks and the call that prints it with locations, for its format (`as_text(debug_info=True)`, `pretty_print(source_info=True)`); null otherwise |
//!
//! A lowered-op object inside `kernels` and `source_lines` is
//! `{line, name, op}`.
//!
//! # JSON of `cost`
//!
//! `mdbook-dumplab cost DUMP [--chip NAME] --json` prints one object (the
//! playground's `cost` request the same), built by `crate::cost`. Figures
//! are numbers (integers where whole); a kernel's figure is null where it
//! is unknown. Fields are stable; new ones may be added, none renamed or
//! removed.
//!
//! | field | type | meaning |
//! |---|---|---|
//! | `totals.xla` | figures object | XLA's own cost model (`HloCostAnalysis`, as `hlo_module_cost_analysis` runs it): `{flops, transcendentals, bytes_accessed, unknown: {flops, transcendentals, bytes_accessed}}`; each figure the known sum, `unknown` how many instructions XLA could not cost for it (XLA's own number is the figure minus `unknown`: it adds -1 per such instruction) |
//! | `totals.estimate` | estimate object | DumpLab's estimate: `{flops, transcendentals, bytes_accessed, bytes_padded, bytes_on_chip, unknown: {...}, reasons: [ids]}`: the kernels' estimates, a loop's body kernels times its stated trip count (its condition's once more), a conditional's largest branch; `bytes_padded` with TPU tile padding (equal to `bytes_accessed` elsewhere), `bytes_on_chip` the part in on-chip memory spaces (`S(n)`, n > 0) |
//! | `totals.not_kernel_bytes` | number | bytes XLA counts for instructions that launch nothing (tuples' index tables, the `-done` half of an asynchronous copy), in the computations the kernels run in, each once: in `totals.xla`, in no kernel (reason `not-a-kernel`) |
//! | `kernels` | list of kernel objects | every kernel of the kernel tree, depth first in run order (a loop's condition and body kernels after it, at `depth` 1) |
//! | `kernels[].name`, `kind`, `detail`, `line`, `depth` | string, string, string or null, integer, integer | the instruction (kind as `kernels::KINDS` names it: `fusion`, `custom-call`, `pallas`, `copy`, `collective`, `op`, ...), its fusion kind or target, its 1-based line in the text as pasted, its nesting |
//! | `kernels[].runs` | integer or null | runs per run of the module (the product of the stated trip counts around it); null when a loop around it states none (then counted once) |
//! | `kernels[].xla` | figures object | XLA's figures of one run of its instruction |
//! | `kernels[].estimate` | estimate object | DumpLab's estimate of one run (no `unknown`: a figure is null where unknown) and its `reasons` |
//! | `kernels[].intensity` | number or null | flops per byte of HBM traffic (`bytes_padded` or `bytes_accessed`, minus `bytes_on_chip`); null without a chip, without bytes or with flops unknown |
//! | `kernels[].bound` | `"memory"`, `"compute"` or null | which roof bounds it under this model; null without a chip or with flops unknown |
//! | `kernels[].lower_bound_s` | number or null | one run's lower bound on time on the chip: the larger of compute time (matrix flops over the peak of their operand type, precision and algorithm, other flops over the vector rate where published) and HBM bytes over bandwidth; with flops unknown, the bytes' time alone |
//! | `kernels[].notes` | list of strings | which peaks the roof used and what it left out |
//! | `kernels[].estimated_cycles` | integer or null | XLA:TPU's own estimate of the kernel's cycles (`"estimated_cycles"` in its `backend_config`), where the dump carries one: the compiler's estimate, not a measurement, and no clock to turn it into seconds |
//! | `kernels[].source_lines` | list of `{file, line}` | where its instructions came from |
//! | `chip` | object | `{name, why}` (`name` null when the dump names no accelerator and none was asked for), and with a chip `full_name`, `peaks` (`bf16`, `fp16`, `tf32`, `fp8`, `int8`, `fp64`, `f32_vector` in flop/s, `hbm_bandwidth` in bytes/s, `hbm_capacity` in bytes, `overhead` in seconds; only those published) and `source: [{figure, title, url, quote}]` |
//! | `roofline` | object or null | with a chip: `{lower_bound_s` (the kernels' bounds over all their runs, summed), `overlapping_pairs` (collective start/done pairs with kernels scheduled between: where there is one, the sum is no lower bound on the module, as the pair may overlap that work), `kernel_runs` (launches: a loop's body kernels once per stated trip, a counted loop's condition never on a CPU or GPU, a GPU's copies not at all: they are memcpys), `runs_known` (false when a loop states no trip count: `kernel_runs` is then a least count), `overhead_per_kernel_s`, `overhead_s` (an assumption, stated in `overhead_assumption`; null where no figure is published), `ranked` (kernel names by their bound over all runs, largest first)`}` |
//! | `unread` | integer | instructions whose figures could not be read (left out of every sum) |
//! | `repaired` | list of strings | what the repair of a damaged paste undid (the ledger read the repaired text) |
//! | `reasons` | object | the reasons used, id to sentence (`cost::estimate::REASONS`) |
//!
//! # JSON of `diff`
//!
//! `mdbook-dumplab diff A B [--chip NAME] --json` prints one object (the
//! playground's `diff` request the same), built by `crate::diff`. Both dumps
//! are of one kind; `kind` says which diff it is. Lines are 1-based lines of
//! each text as pasted. Fields are stable; new ones may be added, none
//! renamed or removed.
//!
//! Two compiled modules (`kind: "compiled"`): every row of each kernel tree
//! (kernels and control flow, depth first in run order) is matched by what it
//! computes, never by its name (`basis`: `identical` everything but the name
//! equal; `provenance` the same normalized `op_name`s and source lines;
//! `source_line` or `op_name`, a group's rows whose provenance together is
//! the whole's; `similar` the most similar provenance, at least half shared;
//! `shape` no provenance, the same kind and shapes; `opcodes` no provenance on either row, the same kind and opcodes, other shapes).
//!
//! | field | type | meaning |
//! |---|---|---|
//! | `a`, `b` | object | `{backend, repaired, xla: {flops, bytes_accessed, not_kernel_bytes, uncosted}}`: the backend the analysis names (or null), whether the paste was repaired, XLA's module figures (known sums; `not_kernel_bytes` the part XLA counts outside any row, as `cost`'s `totals.not_kernel_bytes`: per-row deltas do not add up to the module's by it; `uncosted` the instructions XLA could not cost, custom calls: left out of the sums) |
//! | `chip`, `lower_bound_s` | string or null, `{a, b}` | the preset asked for with `--chip`, and each module's lower bound on it (the kernels' bounds over all their runs, as `cost` sums them); `lower_bound_s` only with a chip |
//! | `summary` | object | `{empty, matched, changed, merged, split, added, removed, introduced, reordered, bytes_delta, flops_delta, truncated}` and with a chip `lower_bound_delta_s`: counts of the lists below; `empty` true when nothing differs (a consistently renamed module); `bytes_delta`, `flops_delta` B's XLA module figure less A's (known sums); `truncated` when matching stopped at its work budget |
//! | `kernels.matched` | list | every pair `{a, b, a_line, b_line, kind, basis, bytes_delta, flops_delta}` (names in A and B, B's kind; deltas null where XLA costs either row not) |
//! | `kernels.changed` | list | the matched pairs that differ, each with `changes`: only what differs, of `kind` [A, B], `detail` [A, B] (fusion kind, custom-call target), `ops_in`/`ops_out` (opcodes run inside in B only / A only), `op_names_in`/`op_names_out` (work that moved in / out), `details_in`/`details_out` (attributes and literals of the instructions inside, without names, in B only / A only: `reduce dimensions={0}`, `constant 3`), `shape`, `layout` (the result as printed, when only it differs), `operand_shapes` [[A], [B]], `depth` [A, B] |
//! | `kernels.merged` | list | `{from: [names in A], from_lines, to: name in B, to_line, basis, bytes_delta, flops_delta}`: several rows of A whose work one row of B holds |
//! | `kernels.split` | list | `{from: name in A, from_line, to: [names in B], to_lines, basis, bytes_delta, flops_delta}` |
//! | `kernels.added`, `kernels.removed` | list | rows of B (of A) with no partner: `{name, line, depth, kind, detail, shape, op_names, source_lines, bytes, flops}` (`op_names` normalized as matched; `source_lines` strings `file-name:line`, the file's last path component; `kind` from `kernels::KINDS`; `bytes`, `flops` XLA's, null where it costs none) |
//! | `introduced` | list | copies and transposes B runs and A did not: `{name, line, what: "copy" or "transpose", how}`, `how` one of `added` (a row with no partner), `regrouped` (a part of a split or merge whose whole is not one), `became` (a matched row now of that kind), `fused-in` (a matched fusion now running the opcode) |
//! | `module` | object | `{scheduled: [A, B] or null, reordered, aliasing: [A, B] or null, entry_layout: [A, B] or null}`: `is_scheduled`, matched rows that run in another order (the pairs less the longest run in one order), `input_output_alias` and `entry_computation_layout` as printed, each where it differs |
//!
//! Two lowered programs or two jaxprs (`kind: "lowered"` or `"jaxpr"`),
//! compared as the operations each source line (innermost frame, file name
//! without its folders) lowered to (a custom call with its target:
//! `stablehlo.custom_call @tpu_custom_call`):
//!
//! | field | type | meaning |
//! |---|---|---|
//! | `format` | string | `stablehlo`, `hlo` (before optimization) or `jaxpr` |
//! | `kind_unproved` | boolean | both texts are HLO that proves neither kind (analysis `unknown` with `kind_guess` `hlo-unoptimized`, or `hlo-unoptimized` with `kind_likely`): compared as lowered programs, which their text does not prove they are |
//! | `a`, `b` | object | `{backend, repaired, ops}`: ops read |
//! | `summary` | object | `{same_program, moved, lines_same, lines_changed, unlocated}`: `same_program` when every source line lowered to the same operations (or, `moved`, the lines that differ hold the same operations together: the code moved to other lines) and the signatures agree; `unlocated` when a side's ops carry no source line (compared as one program) |
//! | `lines` | list | the lines that differ: `{file, line, a: {op: count}, b: {op: count}}` (`file`, `line` null for ops without a location) |
//! | `signature` | object or null | `{a, b}`: the entry function's parameter shapes, where they differ |
//! | `donation` | object or null | `{a, b}`: the entry function's donated or aliased arguments (`%arg0: tf.aliasing_output = 0`, `jax.buffer_donor = true`), where they differ: how `jit` was called, not an operation (`same_program` does not weigh it) |
//!
//! # JSON of `explain`
//!
//! `mdbook-dumplab explain DUMP [--log FILE] --json` prints one object (the
//! playground's `explain` request the same, with `lines` added: the kernels'
//! lines as `[line, text]`), built by `crate::explain`. Lines are 1-based
//! lines of the dump as pasted. Fields are stable; new ones may be added,
//! none renamed or removed.
//!
//! | field | type | meaning |
//! |---|---|---|
//! | `schema` | number | 1 |
//! | `module`, `backend` | string or null | the module's name; the backend the rules were checked for: the one the analysis names, else the one a given log's pass names |
//! | `backend_basis` | string or null | `evidence` (the dump names it) or `log` (the fusion log's pass: XLA:CPU's instruction fusion, XLA:GPU's priority fusion); null without a backend |
//! | `log` | object or null | with `--log`: `{pass, lines, decisions, fused, not_fused, between_kernels, same_kernel, unresolved, unread}`: the pass that wrote it (`cpu-instruction-fusion`, `priority-fusion`), the fusion lines read, the decisions (a pass that runs twice logs some twice), those not fused that join two kernels of this dump, end in one kernel, or are about parameters, tuple elements, constants or names this dump no longer has; `unread` fusion lines DumpLab did not understand |
//! | `ask` | object or null | `{flags, note}`: the environment that makes this backend's XLA log its fusion decisions (`null` for libtpu, which does not), and what its log holds |
//! | `kernels` | list | every row of the kernel tree, depth first in run order: `{name, kind, detail, line, depth, inputs, copy}` (`kind` from `kernels::KINDS`) |
//! | `kernels[].inputs` | list | `{operand, from, from_line, via, reason, detail, basis, reasons, xla, ask}`: `from` the producing kernel's name, or `parameter`, `constant`, `tuple`, `unknown`; `via` the free ops passed (`bitcast`, `get-tuple-element`); `reason` the answer's id (`explain::reasons::REASONS`), `unknown`, or null when `from` is no kernel; `basis` `xla-log` (XLA's first logged reason for this pair), `not-in-log` (a copy the complete log never names: added after fusion, an inference), `dump-folder` (with `--folder`: a copy that first appears after the fusion pass's file) or `rule` (the first reason DumpLab's rules find, checked in XLA's order); `reasons` every reason found, XLA's first, each `{id, basis, detail}`; `xla` `{message, line}` of the log; `ask` the flags to run with when the answer is unknown and no log was given |
//! | `kernels[].copy` | object or null | for a copy, copy-start or transpose: `{opcode, from_layout, to_layout, changes_layout, shape, bytes, source_lines}`: the layouts as printed (the memory space `S(n)` included; `changes_layout` compares them without it), the result's shape, the bytes it reads and writes as the cost ledger's estimate counts them (a `copy-start` once each way, where XLA's own figure counts its whole tuple; null when unknown), the source lines `[file, line]`, `added` with `--folder`: `{file, step, pipeline, pass, unread_before}` of the first numbered file where an instruction of its name and opcode appears (null: none) |
//! | `summary` | object | `{boundaries, explained, unknown}`: inputs that come from another kernel, with an answer, without |
//! | `folder_module` | string or null | with `--folder`: the module of the dump folder read for the copies |
//! | `reasons` | list | the rows of `REASONS` used above: `{id, title, sentence}` |
//! | `collectives` | list, only when the module runs any | which sharding made each collective: `{name, line, opcode, origin, basis}`, as `collectives` has them |
//!
//! # JSON of `collectives`
//!
//! `mdbook-dumplab collectives DUMP [--chip NAME] --json` prints one object
//! (the playground's `collectives` request the same), built by
//! `crate::collectives`. Lines are 1-based lines of the dump as pasted.
//! Fields are stable; new ones may be added, none renamed or removed.
//!
//! | field | type | meaning |
//! |---|---|---|
//! | `schema` | number | 1 |
//! | `module`, `backend` | string or null | the module's name; the backend the analysis names |
//! | `partitions`, `replicas` | number or null | `num_partitions=` and `replica_count=` of the header |
//! | `note` | string or null | how the backend's collectives move data (`collectives::report::BACKEND_NOTES`) |
//! | `chip` | object | `{name, why, interconnect}`: the preset the time bounds are on (null name: none) and why; `interconnect` `{name, bytes_per_s, source, url, quote, derived}`: its published bandwidth, both directions together, and its source |
//! | `collectives` | list | one per collective the module runs (a synchronous one, or a pair's start), in run order: `{name, line, opcode, schedule, schedule_says, done, between, between_count, gpu_is_sync, gpu_kernel_strategy, peers, payload_bytes, result_bytes, at_least_bytes, rule, seconds, origin, origin_says, primitive, basis, source}` |
//! | `collectives[].schedule` | string | `sync`, `pair-empty`, `pair-overlap` (kernels scheduled between start and done: `between`, `[{name, line}]`), `pair-unordered` (no `is_scheduled=true`, or no done found) |
//! | `collectives[].peers` | object | `{form, raw, group_size, groups, moving_pairs, channel_id, use_global_device_ids, host_transfer, dimensions}`: `form` `list`, `iota`, `mesh`, `unread`, `none`, `pairs` or `channel`; `moving_pairs` the source-target pairs whose target is another device |
//! | `collectives[].payload_bytes`, `result_bytes` | number or null | the bytes of its operands and its result on each device |
//! | `collectives[].at_least_bytes`, `rule`, `seconds` | number or null, string, number or null | the bytes each device must at least send or receive whatever the algorithm (`collectives::wire::WIRE_RULES`), the rule, and those bytes over the chip's interconnect |
//! | `collectives[].origin`, `origin_says`, `primitive`, `basis` | strings | which sharding made it (`collectives::origin::ORIGINS`: `written`, `reduction`, `reshard`, `output-sharding`, `host`, `unknown`), the primitive its `op_name` names, and the evidence |
//! | `collectives[].source` | object or null | `{file, line}` of its metadata; null when it has none |
//! | `summary` | object | `{count, sync, pair_empty, pair_overlap, pair_unordered, at_least_bytes}` (null bytes when one is unknown) |

pub mod claims;
pub mod classify;
mod halves;
pub(crate) mod hlo;
mod hlo_evidence;
pub mod invisible;
pub(crate) mod jaxpr;
pub mod line_match;
pub mod markers;
mod mlir;
mod model;
pub(crate) mod pallas;
pub mod pasted;
mod reading;
pub(crate) mod scan;
mod sink;
pub mod unwrap;

pub use classify::{Rule, Verdict, Weight, When};
pub use model::{
    Analysis, Backend, BackendBasis, Computation, Conditional, CustomCall, Dialect, Equation,
    Evidence, Function, Fusion, Kernel, KernelKind, Kind, LineMarkers, Param, Provenance,
    ProvenanceList, SourceOp, UnknownName, WhileLoop,
};
pub use unwrap::{Damage, Undone, unwrap};

/// For a reader of compiled HLO (the ledger, the explainer, the
/// collectives): nothing when `a` is compiled HLO, else the one sentence
/// that says what was found instead and, in `why`, what the reader reads.
pub fn expect_compiled(a: &Analysis, why: &str) -> Result<(), String> {
    if a.kind == Kind::HloOptimized {
        return Ok(());
    }
    let found = match (&a.kind, &a.reason) {
        (Kind::Unknown, _) if a.kind_guess == Some(Kind::HloUnoptimized) => {
            "HLO whose text proves neither kind (its hints suggest HLO before optimization, a guess)"
                .to_owned()
        }
        (Kind::Unknown, Some(r)) => format!("text of unknown kind ({r})"),
        (Kind::HloUnoptimized, _) if a.kind_likely.is_some() => {
            "HLO before optimization (likely, not proved: only hints say so)".to_owned()
        }
        (k, _) => format!("a {k} dump"),
    };
    Err(format!(
        "expected compiled HLO (`lower(...).compile().as_text()`), found {found}: {why}"
    ))
}

/// The rules that decide whether an HLO module was compiled and for which
/// backend, in table order (see [`classify`]).
pub fn rules() -> &'static [Rule] {
    &classify::RULES
}

/// Reads a dump (or an excerpt of one) and says what it is and why.
///
/// A damaged paste is repaired first ([`unwrap()`]); line numbers and columns
/// refer to the text as pasted.
///
/// Never panics, runs in time linear in the text, does no I/O.
pub fn analyze(text: &str) -> Analysis {
    analyze_with(text, |a, _, _| a)
}

/// [`analyze`], handing `f` the analysis with the repaired text and the
/// program model the analysis read it into, for a reader built on both
/// (the cost ledger) that would otherwise repair and parse the text again.
pub fn analyze_with<R>(
    text: &str,
    f: impl FnOnce(Analysis, &unwrap::Unwrapped<'_>, &crate::program::Module<'_>) -> R,
) -> R {
    let repaired = unwrap::unwrap(text);
    let module = crate::program::parse(&repaired.text);
    let a = analysis_of(&repaired, &module);
    f(a, &repaired, &module)
}

/// The analysis of a repaired text and its module: a large module's lines
/// on two threads ([`halves`]), any other text's in one pass.
fn analysis_of<'t>(
    repaired: &'t unwrap::Unwrapped<'_>,
    module: &'t crate::program::Module<'t>,
) -> Analysis {
    let hlo = hlo_evidence::HloReader::new(module, &repaired.text, &repaired.map);
    let mut r = reading::Reading::new(hlo);
    if !halves::read(&mut r, repaired, module) {
        r.read(repaired, scan::Lines::new(&repaired.text), 0, false);
    }
    r.finish(repaired)
}
