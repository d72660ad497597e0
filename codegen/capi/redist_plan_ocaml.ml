(* The OCaml side of the C ABI (runtime/src/capi.cpp): callbacks registered
   by name when capi.cpp starts OCaml's runtime.  Planning is the command
   line's (Problem.make, Planning.plan: the extracted, verified planner),
   and the figures, texts and JSON are those `redist plan` prints. *)

module R = Redist_cli

(* Field order is read by runtime/src/capi.cpp. *)
type info = {
  program : Lowering.program;
  report : R.Report.t;          (* kept for box queries *)
  text : string;                (* what `redist plan` prints *)
  json : string;                (* what `redist plan --json` prints *)
  guarantees : string;          (* one "theorem: statement" line each *)
  step_texts : string array;    (* each step in plan-file syntax *)
  devices : int;
  global_shape : int array;
  src_bytes : int;
  tgt_bytes : int;
  peak_bytes : int;
  workspace_bytes : int;
  recv_max_bytes : int;         (* the busiest rank, whole plan *)
  lower_bound_recv_max_bytes : int;
}

(* Tag 0 and tag 1 in capi.cpp. *)
type outcome = Created of info | Failed of int * string

let bytes (r : R.Report.t) elems = R.Bounds.mul elems r.problem.elem_bytes

let create mesh from to_ dtype =
  let p = R.Problem.make ~mesh ~from ~to_ ~dtype:(if dtype = "" then None else Some dtype) in
  if List.length p.src > R.Bounds.max_rank_gen then
    R.Front.bad "--from: %d dimensions; the runtime handles at most %d" (List.length p.src) R.Bounds.max_rank_gen;
  if List.length p.env.axes > R.Bounds.max_rank_gen then
    R.Front.bad "--mesh: %d axes; the runtime's mesh has at most %d" (List.length p.env.axes) R.Bounds.max_rank_gen;
  let r, guarantees = R.Planning.plan p in
  { program = Lowering.program r; report = r;
    text = R.Report.text ~title:"redist plan" ~guarantees r;
    json = Yojson.Safe.pretty_to_string (R.Json.report ~command:"plan" ~guarantees r) ^ "\n";
    guarantees = String.concat "" (List.map (fun (n, what) -> n ^ ": " ^ what ^ "\n") guarantees);
    step_texts = Array.of_list (List.map (fun (s : R.Report.step) -> R.Front.show_collective r.env s.coll) r.steps);
    devices = Redist_core.mesh_size (R.Front.core_mesh p.env);
    global_shape = Array.of_list (Redist_core.global_shape p.src);
    src_bytes = bytes r r.src_elems; tgt_bytes = bytes r r.tgt_elems; peak_bytes = bytes r r.peak;
    workspace_bytes = R.Emit.workspace_bytes r; recv_max_bytes = bytes r r.recv_busiest;
    lower_bound_recv_max_bytes = bytes r r.lb_max }

(* The command line's exit codes: 2 bad input, 3 internal error. *)
let guarded f =
  try f () with
  | R.Front.Bad_input msg -> Failed (2, msg)
  | R.Bounds.Overflow -> Failed (2, "a count of elements or bytes exceeds 2^62 - 1; the problem is too large")
  | Stack_overflow -> Failed (3, "internal error: stack overflow")
  | Out_of_memory -> Failed (3, "internal error: out of memory")
  | e -> Failed (3, "internal error: " ^ Printexc.to_string e)

let () =
  Callback.register "redist_plan_create" (fun mesh from to_ dtype ->
      guarded (fun () -> Created (create mesh from to_ dtype)));
  (* which: 0 the source type, 1 the target type; rank in 0..devices-1
     (capi.cpp checks it). *)
  Callback.register "redist_plan_box" (fun (r : R.Report.t) which rank ->
      Lowering.box r (if which = 0 then r.problem.src else r.problem.tgt) rank)
