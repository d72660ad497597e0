(* The OCaml side of the C ABI (runtime/src/capi.cpp): callbacks registered
   by name when capi.cpp starts OCaml's runtime.  Planning is the command
   line's (Problem.make_placed, Planning.choose_costed under the default
   cost model: the extracted, verified choice of any strategy, hybrids
   included), and the figures, texts and JSON are those `redist plan`
   prints. *)

type info = {
  lowered : Lowering.lowered;
  problem : Problem.t;        (* kept for box queries *)
  text : string;                (* what `redist plan` prints *)
  json : string;                (* what `redist plan --json` prints *)
  guarantees : string;          (* one "theorem: statement" line each *)
  step_texts : string array;    (* each step in plan-file syntax *)
  devices : int;                (* world ranks 0 .. devices - 1 take part *)
  global_shape : int array;
  src_bytes : int;              (* the largest source box *)
  tgt_bytes : int;              (* the largest target box *)
  peak_bytes : int;
  workspace_bytes : int;
  recv_max_bytes : int;         (* the busiest rank, whole plan *)
  lower_bound_recv_max_bytes : int;
  live_bytes : int;             (* lower_live_bytes / lower_splan_live_bytes *)
  alloc_bytes : int;            (* what the caller allocates on a rank: splan_alloc_bytes / sumplan_alloc_bytes *)
  digest : Problem.digest;    (* what the ranks agree on in redist_plan_bind *)
}

(* The plan as capi.cpp reads it (Abi_data: by field name). *)
let info_data (i : info) =
  let module D = Abi_data in
  let d = i.digest in
  D.Record
    ( "plan",
      [| ("lowered", Lowering.lowered_data i.lowered); ("text", D.Text i.text); ("json", D.Text i.json);
         ("guarantees", D.Text i.guarantees); ("step_texts", D.texts i.step_texts); ("devices", D.Int i.devices);
         ("global_shape", D.ints i.global_shape); ("src_bytes", D.Int i.src_bytes); ("tgt_bytes", D.Int i.tgt_bytes);
         ("peak_bytes", D.Int i.peak_bytes); ("workspace_bytes", D.Int i.workspace_bytes);
         ("recv_max_bytes", D.Int i.recv_max_bytes); ("lower_bound_recv_max_bytes", D.Int i.lower_bound_recv_max_bytes);
         ("live_bytes", D.Int i.live_bytes); ("alloc_bytes", D.Int i.alloc_bytes);
         ( "digest",
           D.Record
             ( "digest",
               [| ("meshes", D.Int64 d.Problem.meshes); ("layouts", D.Int64 d.layouts); ("element", D.Int64 d.element);
                  ("plan", D.Int64 d.plan) |] ) ) |] )

(* capi.cpp's create reads Created's two fields (the plan's data, and the
   problem it keeps for box queries) or Failed's (exit code, message). *)
type outcome = Created of Abi_data.t * Problem.t | Failed of int * string

let created (i : info) = Created (info_data i, i.problem)

(* The problem as `redist plan` and `redist check` read it, within the
   runtime's limits (those of `redist gen`). *)
(* Messages name redist_plan_create_with's arguments, not the command's flags. *)
let argument_names =
  { Problem.mesh_name = "mesh"; from_mesh_name = "mesh"; to_mesh_name = "to_mesh"; from_name = "from";
    to_name = "to"; dtype_name = "dtype" }

let meshes_of mesh to_mesh = if to_mesh = "" then Problem.One mesh else Problem.Two (mesh, to_mesh)

let strategy_of = function
  | "" -> Redist_core.StratAuto
  | strategy -> (
      match List.assoc_opt strategy Problem.strategies with
      | Some s -> s
      | None ->
          Front.bad "strategy: unknown strategy %s (expected %s)" (Excerpt.quote strategy)
            (String.concat ", " (List.map fst Problem.strategies)))

let dtype_of dtype = if dtype = "" then None else Some dtype

let problem mesh to_mesh from to_ dtype strategy =
  let p =
    Problem.make_named ~names:argument_names ~meshes:(meshes_of mesh to_mesh) ~strategy:(strategy_of strategy) ~from
      ~to_ ~dtype:(dtype_of dtype)
  in
  Problem.check_runtime_limits ~names:argument_names p;
  p

(* A problem that either side may state with composed cuts: what
   redist_plan_create plans. *)
let any_problem mesh to_mesh from to_ dtype strategy =
  let a =
    Problem.make_any ~names:argument_names ~meshes:(meshes_of mesh to_mesh) ~strategy:(strategy_of strategy) ~from
      ~to_ ~dtype:(dtype_of dtype)
  in
  (match a with
   | Problem.Plain p -> Problem.check_runtime_limits ~names:argument_names p
   | Problem.Composed c -> Problem.check_runtime_limits ~names:argument_names c.meshes);
  a

(* What the C ABI keeps of a plan of either kind: what `redist COMMAND`
   prints, the figures and the lowering. *)
(* [cost]: the default cost model's choice, printed after the plan as
   `redist plan` prints it. *)
let info ?cost ~command ~title (p : Problem.t) plan guarantees =
  let bytes elems = Bounds.mul elems p.elem_bytes in
  let json =
    let doc =
      match (Json.any_report ~command ~guarantees plan, cost) with
      | `Assoc fields, Some (settings, costing) -> `Assoc (fields @ Costreport.json_fields settings p costing)
      | doc, _ -> doc
    in
    Yojson.Safe.pretty_to_string doc ^ "\n"
  in
  let cost_text = match cost with Some (settings, costing) -> Costreport.text settings p costing | None -> "" in
  let common ~lowered ~text ~step_texts ~devices =
    { lowered; problem = p; text; json; step_texts; devices;
      guarantees = String.concat "" (List.map (fun (n, what) -> n ^ ": " ^ what ^ "\n") guarantees);
      global_shape = Array.of_list (Redist_core.global_shape p.src);
      src_bytes = 0; tgt_bytes = 0; peak_bytes = 0; workspace_bytes = 0; recv_max_bytes = 0;
      lower_bound_recv_max_bytes = 0; live_bytes = 0;
      alloc_bytes =
        Redist_core.splan_alloc_bytes p.elem_bytes (Problem.source_layout p) (Problem.target_layout p)
          (Xreport.splan plan);
      digest = Problem.digest p ~plan_lines:(Xreport.step_lines plan) }
  in
  match plan with
  | Xreport.Collectives r ->
      { (common ~lowered:(Lowering.By_collectives (Lowering.program r))
           ~text:(Report.text ~title ~guarantees r ^ cost_text)
           ~step_texts:(Array.of_list (List.map (fun (s : Report.step) -> Front.show_collective r.env s.coll) r.steps))
           ~devices:(Redist_core.mesh_size (Front.core_mesh p.env)))
        with src_bytes = bytes r.src_elems; tgt_bytes = bytes r.tgt_elems; peak_bytes = bytes r.peak;
             workspace_bytes = Redist_core.workspace_bytes (Lazy.force r.calls); recv_max_bytes = bytes r.recv_busiest;
             lower_bound_recv_max_bytes = bytes r.lb_max; live_bytes = Lazy.force r.live_bytes }
  | Xreport.Exchange x ->
      { (common ~lowered:(Lowering.By_exchange (Lowering.exchange p))
           ~text:(Xreport.text ~title ~guarantees x ^ cost_text) ~step_texts:[| "exchange" |] ~devices:x.world)
        with src_bytes = bytes x.src_max; tgt_bytes = bytes x.tgt_max; peak_bytes = bytes x.peak;
             recv_max_bytes = bytes x.recv_busiest; lower_bound_recv_max_bytes = bytes x.lb_max;
             live_bytes = x.live_bytes }
  | Xreport.Hybrid h ->
      let f = Xreport.figures h in
      let src_max, tgt_max = Redist_core.largest_boxes (Problem.source_layout p) (Problem.target_layout p) in
      (* The steps as the JSON's: each part's, in order. *)
      let rec step_texts = function
        | Xreport.Collectives r -> List.map (fun (s : Report.step) -> Front.show_collective r.env s.coll) r.steps
        | Xreport.Exchange _ -> [ "exchange" ]
        | Xreport.Hybrid h -> step_texts h.first @ step_texts h.second
      in
      { (common ~lowered:(Lowering.hybrid h) ~text:(Xreport.hybrid_text ~title ~guarantees h ^ cost_text)
           ~step_texts:(Array.of_list (step_texts plan)) ~devices:f.h_world)
        with src_bytes = bytes src_max; tgt_bytes = bytes tgt_max; peak_bytes = bytes f.h_peak;
             workspace_bytes = f.h_workspace_bytes; recv_max_bytes = bytes f.h_recv_busiest;
             lower_bound_recv_max_bytes = bytes f.h_lb_max; live_bytes = f.h_live_bytes }

(* A plan for pending sums ([Sumplan]): its figures are scheck's and
   the extracted lowering's ([lower_sumplan]: workspace and live bytes,
   proven for both kinds of plan). *)
let sums_info ?cost ~command ~title (r : Sumplan.t) =
  let p = r.problem in
  let bytes elems = Bounds.mul elems p.elem_bytes in
  let s = Problem.source_layout p and t = Problem.target_layout p in
  let src_bytes = bytes (Redist_core.largest_box s) and tgt_bytes = bytes (Redist_core.largest_box t) in
  let lowering = Redist_core.lower_sumplan p.elem_bytes (Problem.fill p) s p.src_pending t p.tgt_pending r.plan in
  let lowered =
    match lowering with
    | Redist_core.SumExchangeCall _ -> Lowering.By_reducing_exchange (Lowering.reducing_exchange p)
    | Redist_core.SumCalls pg -> Lowering.By_collectives (Lowering.sums_program p pg)
  in
  let workspace_bytes = Redist_core.sumplan_workspace_bytes lowering
  and live_bytes = Redist_core.sumplan_live_bytes p.elem_bytes (Problem.fill p) s p.src_pending t p.tgt_pending r.plan in
  let guarantees = Sumplan.guarantees r in
  let step_texts = List.map (fun (s : Sumplan.step) -> s.text) r.steps in
  { lowered; problem = p; text = Sumplan.text ?cost ~title r;
    json = Yojson.Safe.pretty_to_string (Sumplan.json ?cost ~command r) ^ "\n";
    guarantees = String.concat "" (List.map (fun (n, what) -> n ^ ": " ^ what ^ "\n") guarantees);
    step_texts = Array.of_list step_texts; devices = r.world;
    global_shape = Array.of_list (Redist_core.global_shape p.src); src_bytes; tgt_bytes; peak_bytes = bytes r.peak;
    workspace_bytes; recv_max_bytes = bytes r.recv_busiest;
    lower_bound_recv_max_bytes = (match r.bound with Some (lb, _) -> bytes lb | None -> 0); live_bytes;
    alloc_bytes = r.alloc_bytes;
    digest = Problem.digest p ~plan_lines:step_texts }

(* A problem with composed cuts: one region exchange (Cutplan), reducing
   with pending axes, its
   figures and texts those of `redist plan`; a box query cannot describe a
   composed holding, so capi.cpp refuses those for such plans. *)
let regions_info (c : Problem.composed) =
  let r = Cutplan.make c in
  let p = c.meshes in
  let bytes elems = Bounds.mul elems p.elem_bytes in
  let guarantees = Cutplan.guarantees c in
  let step_texts = Cutplan.plan_lines in
  { lowered = Lowering.By_regions (Lowering.regions c); problem = p; text = Cutplan.text ~title:"redist plan" r;
    json = Yojson.Safe.pretty_to_string (Cutplan.json ~command:"plan" r) ^ "\n";
    guarantees = String.concat "" (List.map (fun (n, what) -> n ^ ": " ^ what ^ "\n") guarantees);
    step_texts = Array.of_list step_texts; devices = r.world;
    global_shape = Array.of_list (List.map snd c.csrc); src_bytes = bytes r.src_max; tgt_bytes = bytes r.tgt_max;
    peak_bytes = r.live_bytes; workspace_bytes = 0; recv_max_bytes = bytes r.recv_busiest;
    lower_bound_recv_max_bytes = bytes r.recv_busiest; live_bytes = r.live_bytes; alloc_bytes = r.live_bytes;
    digest = Cutplan.digest c }

let create mesh to_mesh from to_ dtype strategy =
  match any_problem mesh to_mesh from to_ dtype strategy with
  | Problem.Composed c -> regions_info c
  | Problem.Plain p when Problem.has_pending p ->
      let r, cost = Sumplan.choose_costed (Planning.default_settings p) p in
      sums_info ~cost ~command:"plan" ~title:"redist plan" r
  | Problem.Plain p ->
      let settings = Planning.default_settings p in
      let plan, guarantees, costing = Planning.choose_costed settings p in
      info ~cost:(settings, costing) ~command:"plan" ~title:"redist plan" p plan guarantees

(* The exchange in place (Inplace.v): the extracted [inplace_plan] (the
   generator's schedule, accepted by the proven validator) with
   [staging_bytes] of staging per rank, at least one element.  Pending sums
   are not planned in place. *)
let in_place_guarantees =
  [ ("inplace_sound", "every rank's buffer holds its target box, row-major, when the rounds have run");
    ("inplace_live_bytes", "every run lies within its rank's buffer (max(source, target) box) or its staging");
    ("inplace_traffic_exact", "each rank receives exactly its lower bound: the target elements its source lacks");
    ("inplace_rounds_match", "within a round, what a rank sends to a peer is what the peer receives from it, run by run");
    ("round_sequential", "within a round no run written meets a run read or another written: any order of the moves gives the same buffer") ]

(* [schedule], the extracted [inplace_plan] at [staging] elements. *)
let in_place_info (p : Problem.t) staging schedule =
  let s = Problem.source_layout p and t = Problem.target_layout p in
  let lowered = Lowering.in_place p staging schedule in
  let bytes elems = Bounds.mul elems p.elem_bytes in
  let world = Problem.world p in
  let ranks = List.init world Fun.id in
  let most f = List.fold_left (fun acc w -> max acc (f w)) 0 ranks in
  let buffer_max = Array.fold_left max 0 lowered.buffer_elements in
  let staging_used =
    List.fold_left
      (List.fold_left (fun acc (mv : Redist_core.move) ->
           List.fold_left
             (fun acc (x : Redist_core.place) ->
               if x.pl_area = Redist_core.Stage then max acc (x.pl_off + mv.mv_len) else acc)
             acc [ mv.mv_from; mv.mv_to ]))
      0 schedule
  in
  let src_max, tgt_max = Redist_core.largest_boxes s t in
  let round_text i (rd : Redist_core.round) =
    let sent = List.filter Redist_core.crosses rd in
    let elements moves = List.fold_left (fun acc (mv : Redist_core.move) -> acc + mv.mv_len) 0 moves in
    Printf.sprintf "round %d: %d runs, %d elements between ranks, %d within one" (i + 1) (List.length rd)
      (elements sent) (elements rd - elements sent)
  in
  let step_texts = List.mapi round_text schedule in
  let live = bytes (buffer_max + staging_used) in
  let text =
    String.concat ""
      (List.map (fun l -> l ^ "\n")
         ([ Printf.sprintf "redist plan, in place: %s, %s to %s, %s" (Problem.show_meshes p) (Front.show_ty p.env p.src)
              (Front.show_ty p.tgt_env p.tgt) p.dtype.name;
            Printf.sprintf "  %d rounds; buffer per rank max(source, target), at most %d bytes; staging %d bytes of %d allowed"
              (List.length schedule) (bytes buffer_max) (bytes staging_used) (bytes staging) ]
         @ List.map (fun l -> "  " ^ l) step_texts))
  in
  let json =
    Yojson.Safe.pretty_to_string
      (`Assoc
         [ ("command", `String "plan"); ("in_place", `Bool true); ("source", `String (Front.show_ty p.env p.src));
           ("target", `String (Front.show_ty p.tgt_env p.tgt)); ("dtype", `String p.dtype.name);
           ("rounds", `Int (List.length schedule)); ("buffer_bytes_max", `Int (bytes buffer_max));
           ("staging_bytes", `Int (bytes staging_used)); ("staging_bytes_allowed", `Int (bytes staging));
           ("live_bytes", `Int live); ("steps", `List (List.map (fun t -> `String t) step_texts)) ])
    ^ "\n"
  in
  { lowered = Lowering.In_place lowered; problem = p; text; json;
    guarantees = String.concat "" (List.map (fun (n, what) -> n ^ ": " ^ what ^ "\n") in_place_guarantees);
    step_texts = Array.of_list step_texts; devices = world;
    global_shape = Array.of_list (Redist_core.global_shape p.src); src_bytes = bytes src_max;
    tgt_bytes = bytes tgt_max; peak_bytes = bytes buffer_max; workspace_bytes = bytes staging_used;
    recv_max_bytes = bytes (most (Redist_core.received0 schedule));
    lower_bound_recv_max_bytes = bytes (most (Redist_core.recv_lower_bound s t)); live_bytes = live;
    alloc_bytes = live;
    digest = Problem.digest p ~plan_lines:(Printf.sprintf "in place, staging %d" staging :: step_texts) }

let create_in_place mesh to_mesh from to_ dtype staging_bytes =
  let p = problem mesh to_mesh from to_ dtype "" in
  if Problem.has_pending p then Front.bad "redist_plan_create_in_place: pending sums are not planned in place";
  if staging_bytes < p.elem_bytes then
    Front.bad "staging_bytes: %d bytes is less than one element of %s (%d bytes); in place needs at least one"
      staging_bytes p.dtype.name p.elem_bytes;
  let s = Problem.source_layout p and t = Problem.target_layout p in
  (* A rank saves at most one element per place of its buffer, so staging
     beyond the largest buffer is never used: "unbounded" is that. *)
  let staging = min (staging_bytes / p.elem_bytes) (max 1 (Redist_core.largest_buffer s t)) in
  match Redist_core.inplace_plan s t staging with
  | Some schedule -> in_place_info p staging schedule
  | None -> raise (Report.Rejected (Printf.sprintf "no in-place schedule within staging of %d elements" staging))

(* The plan `redist plan --memory-budget` takes under auto with the
   built-in profile on one host ([Costinplace.choose_within]): the
   cheapest that allocates at most [budget_bytes] per rank, out of place
   or in place (kind 4); pending sums by [Costsums.choose_sums] within the
   budget. *)
let create_within mesh to_mesh from to_ dtype budget_bytes =
  match any_problem mesh to_mesh from to_ dtype "" with
  | Problem.Composed _ ->
      Front.bad "redist_plan_create_within: composed cuts are not planned within a budget yet; use redist_plan_create"
  | Problem.Plain p ->
      let settings = { (Planning.default_settings p) with budget = Some budget_bytes; given = true } in
      if Problem.has_pending p then
        let r, cost = Sumplan.choose_costed settings p in
        sums_info ~cost ~command:"plan" ~title:"redist plan" r
      else (
        match Planning.choose_within settings p budget_bytes with
        | Planning.Out_of_place (plan, guarantees, costing) ->
            info ~cost:(settings, costing) ~command:"plan" ~title:"redist plan" p plan guarantees
        | Planning.In_place (staging, schedule, _) -> in_place_info p staging schedule)

(* A plan in plan-file syntax, checked by the verified checker as `redist
   check --plan` does. *)
let check mesh to_mesh from to_ dtype text =
  if String.length text > Bounds.max_input_bytes then
    Front.bad "plan: the plan is longer than %d bytes (16 MiB), the limit for a plan file" Bounds.max_input_bytes;
  let p = problem mesh to_mesh from to_ dtype "" in
  let title = "redist check: plan accepted" in
  if Problem.has_pending p then sums_info ~command:"check" ~title (Sumplan.check p text)
  else
    let plan = Planfile.check_any p text in
    info ~command:"check" ~title p plan (Guarantees.for_checked plan)

(* The plan of a `redist plan --json` or `redist check --json` report
   (schema redist/1), checked again: its refine lines and step texts (a
   hybrid's plan_file lines) are a plan file over its problem.  Meshes equal
   and on ranks 0..n-1 are the one mesh of `--mesh`, whose plans may be
   collectives.  Each value is read with its path in the document
   (steps[3].text), which an error names. *)
let from_json text =
  let bad fmt = Printf.ksprintf (fun s -> Front.bad "plan JSON: %s" s) fmt in
  if String.length text > Bounds.max_input_bytes then
    bad "longer than %d bytes (16 MiB), the limit for a report" Bounds.max_input_bytes;
  let root = ("", Front.read_json ~what:"plan JSON" text) in
  let child path name = if path = "" then name else path ^ "." ^ name in
  let field_opt (path, json) name =
    match json with
    | `Assoc fields -> Option.map (fun v -> (child path name, v)) (List.assoc_opt name fields)
    | _ -> bad "%s: expected an object" (if path = "" then "the document" else path)
  in
  let field ((path, _) as v) name =
    match field_opt v name with Some f -> f | None -> bad "no field %s" (child path name)
  in
  let string (path, json) = match json with `String s -> s | _ -> bad "%s: expected a string" path in
  let int (path, json) = match json with `Int n -> n | _ -> bad "%s: expected an integer" path in
  (* List.map recurses once per element (OCaml 4.13), which a long list
     would turn into a stack overflow: in the C ABI's host, a crash. *)
  let list_map f l = List.rev (List.rev_map f l) in
  let items (path, json) =
    match json with
    | `List l -> List.rev (snd (List.fold_left (fun (i, acc) v -> (i + 1, (Printf.sprintf "%s[%d]" path i, v) :: acc)) (0, []) l))
    | _ -> bad "%s: expected an array" path
  in
  let map f v = list_map f (items v) in
  let placed name =
    let m = field root name in
    ( map (fun a -> Printf.sprintf "%s:%d" (string (field a "name")) (int (field a "size"))) (field m "axes"),
      map int (field m "ranks") )
  in
  let source = placed "source_mesh" and target = placed "target_mesh" in
  let axes_text axes = "{" ^ String.concat ", " axes ^ "}" in
  let placed_text (axes, ranks) = axes_text axes ^ " @ [" ^ String.concat ", " (list_map string_of_int ranks) ^ "]" in
  let one_mesh = source = target && snd source = List.init (List.length (snd source)) Fun.id in
  let mesh, to_mesh = if one_mesh then (axes_text (fst source), "") else (placed_text source, placed_text target) in
  (* A pending-sum plan's reductions come before its refine lines (Sumplan.check). *)
  let is_reduction step = List.mem (string (field step "op")) [ "reduce_scatter"; "all_reduce" ] in
  let rec split_reductions acc = function
    | step :: rest when is_reduction step -> split_reductions (step :: acc) rest
    | rest -> (List.rev acc, rest)
  in
  let lines =
    match field_opt root "plan_file" with
    | Some plan_file -> map string plan_file (* a hybrid: its parts around its via line *)
    | None ->
        let reductions, steps = split_reductions [] (items (field root "steps")) in
        let texts = list_map (fun step -> string (field step "text")) in
        let append a b = List.rev_append (List.rev a) b in
        append (texts reductions) (append (map string (field root "refine")) (texts steps))
  in
  check mesh to_mesh (string (field root "source")) (string (field root "target")) (string (field root "dtype"))
    (String.concat "\n" lines)

(* The command line's exit codes: 1 plan rejected, 2 bad input, 3 internal
   error. *)
let guarded f =
  try f () with
  | Report.Rejected msg -> Failed (1, "plan rejected: " ^ msg)
  | Front.Bad_input msg -> Failed (2, msg)
  | Bounds.Overflow -> Failed (2, "a count of elements or bytes exceeds 2^62 - 1; the problem is too large")
  | Stack_overflow -> Failed (3, "internal error: stack overflow")
  | Out_of_memory -> Failed (3, "internal error: out of memory")
  | e -> Failed (3, "internal error: " ^ Printexc.to_string e)

let () =
  (* Empty strings for to_mesh, dtype and strategy: one mesh, the types'
     dtype, auto. *)
  Callback.register "redist_plan_create" (fun mesh to_mesh from to_ dtype strategy ->
      guarded (fun () -> created (create mesh to_mesh from to_ dtype strategy)));
  Callback.register "redist_plan_check" (fun mesh to_mesh from to_ dtype text ->
      guarded (fun () -> created (check mesh to_mesh from to_ dtype text)));
  Callback.register "redist_plan_create_in_place" (fun mesh to_mesh from to_ dtype staging_bytes ->
      guarded (fun () -> created (create_in_place mesh to_mesh from to_ dtype staging_bytes)));
  Callback.register "redist_plan_create_within" (fun mesh to_mesh from to_ dtype budget_bytes ->
      guarded (fun () -> created (create_within mesh to_mesh from to_ dtype budget_bytes)));
  Callback.register "redist_plan_from_json" (fun text -> guarded (fun () -> created (from_json text)));
  (* which: 0 the source layout, 1 the target layout; rank >= 0
     (capi.cpp checks it): a rank in neither mesh holds an empty box. *)
  Callback.register "redist_plan_box" (fun (p : Problem.t) which rank ->
      let layout = if which = 0 then Problem.source_layout p else Problem.target_layout p in
      Abi_data.box (Lowering.box layout (List.length p.src) rank));
  (* rank within the world (capi.cpp checks it). *)
  Callback.register "redist_plan_sum_receives" (fun (p : Problem.t) rank -> Lowering.sum_receives p rank)
