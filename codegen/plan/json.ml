(* The one JSON shape of every command's --json output, "schema": "redist/1"
   (docs/schema/redist-1.json): a document names its schema and command; the
   problem (mesh, types, dtype) and the plan (refined mesh, steps) have the
   same fields wherever they appear; an error is {schema, command, error:
   {message, exit_code}}. *)

module C = Redist_core
module F = Front

let schema = "redist/1"

let document ~command fields : Yojson.Safe.t =
  `Assoc (("schema", `String schema) :: ("command", `String command) :: fields)

let error ~command ~message ~exit_code =
  document ~command [ ("error", `Assoc [ ("message", `String message); ("exit_code", `Int exit_code) ]) ]

(* An axis of a mesh: [of] is the axis of the user's mesh it refines (its
   own name when not refined). *)
let mesh (env : F.env) =
  `List
    (List.map
       (fun (a : F.axis_info) -> `Assoc [ ("name", `String a.name); ("size", `Int a.size); ("of", `String a.origin) ])
       env.axes)

let placed_mesh env ranks = `Assoc [ ("axes", mesh env); ("ranks", `List (List.map (fun r -> `Int r) ranks)) ]

(* [mesh] is the user's mesh (the source mesh when there are two). *)
let problem (p : Problem.t) =
  [ ("mesh", mesh p.env); ("source_mesh", placed_mesh p.env p.src_ranks);
    ("target_mesh", placed_mesh p.tgt_env p.tgt_ranks); ("strategy", `String (Problem.strategy_name p.strategy));
    ("source", `String (F.show_ty p.env p.src ^ F.show_pending p.env p.op p.src_pending));
    ("target", `String (F.show_ty p.tgt_env p.tgt ^ F.show_pending p.tgt_env p.op p.tgt_pending));
    ("dtype", `String p.dtype.name); ("elem_bytes", `Int p.elem_bytes) ]

(* A step's op, the dims it names and the axis it works over, on [env]'s
   mesh; [before] is the type it reads. *)
let collective_fields env before coll =
  let axis_of d = `String (F.axis_name env (C.last_axis (fst (C.dim_of before d)))) in
  match coll with
  | C.DynSlice (d, x) -> ("dyn_slice", [ d ], `String (F.axis_name env x))
  | C.AllGather d -> ("all_gather", [ d ], axis_of d)
  | C.AllToAll (a, b) -> ("all_to_all", [ a; b ], axis_of a)
  | C.AllPermute _ -> ("all_permute", [], `Null)

let sum_step_fields env = function
  | C.ReduceScatter (d, a) -> ("reduce_scatter", [ d ], `String (F.axis_name env a))
  | C.AllReduce a -> ("all_reduce", [], `String (F.axis_name env a))
  | C.AddPending a -> ("add_pending", [], `String (F.axis_name env a))

let step_object (op, dims, axis) ~text ~after ~local_elems ~recv_max =
  `Assoc
    [ ("op", `String op); ("text", `String text); ("dims", `List (List.map (fun d -> `Int d) dims)); ("axis", axis);
      ("type", `String after); ("local_elems", `Int local_elems); ("recv_elems_max", `Int recv_max) ]

let step (r : Report.t) (s : Report.step) =
  step_object (collective_fields r.env s.before s.coll) ~text:(F.show_collective r.env s.coll)
    ~after:(F.show_ty r.env s.after) ~local_elems:s.local_elems ~recv_max:s.recv_max

(* The plan: the mesh it runs on (the user's, refined) and its steps. *)
let plan (r : Report.t) =
  [ ("refined_mesh", mesh r.env);
    ("refine", `List (List.map (fun l -> `String l) (F.refine_lines ~base:r.problem.env r.env)));
    ("steps", `List (List.map (step r) r.steps)) ]

(* What `plan` and `check` print about an accepted plan. *)
let report ~command ~guarantees (r : Report.t) =
  document ~command
    (problem r.problem @ plan r
    @ [ ("peak_elems", `Int r.peak); ("src_elems", `Int r.src_elems); ("tgt_elems", `Int r.tgt_elems);
        ("global_elems", `Int r.global_elems);
        ("recv_elems_max", `Int r.recv_busiest); ("recv_elems_total", `Int r.recv_total);
        ("lower_bound_recv_max", `Int r.lb_max); ("lower_bound_recv_total", `Int r.lb_total);
        ("launches", `Int r.launches); ("slices", `Int r.slices);
        ("proven", `List (List.map (fun (n, _) -> `String n) guarantees)) ])

(* An exchange plan: one step, on the user's meshes (nothing refined). *)
let exchange_step (r : Xreport.t) =
  let p = r.problem in
  step_object ("exchange", [], `Null) ~text:"exchange" ~after:(F.show_ty p.tgt_env p.tgt) ~local_elems:r.tgt_max
    ~recv_max:r.recv_busiest

let exchange_plan (r : Xreport.t) =
  [ ("refined_mesh", mesh r.problem.env); ("refine", `List []); ("steps", `List [ exchange_step r ]) ]

(* A hybrid: its parts' steps in sequence, on the user's meshes. *)
let rec plan_steps = function
  | Xreport.Collectives r -> List.map (step r) r.steps
  | Xreport.Exchange r -> [ exchange_step r ]
  | Xreport.Hybrid h -> plan_steps h.first @ plan_steps h.second

let any_plan = function
  | Xreport.Collectives r -> plan r
  | Xreport.Exchange r -> exchange_plan r
  | Xreport.Hybrid h as x -> [ ("refined_mesh", mesh h.whole.env); ("refine", `List []); ("steps", `List (plan_steps x)) ]

let exchange_report ~command ~guarantees (r : Xreport.t) =
  document ~command
    (problem r.problem @ exchange_plan r
    @ [ ("peak_elems", `Int r.peak); ("src_elems", `Int r.src_max); ("tgt_elems", `Int r.tgt_max);
        ("global_elems", `Int r.global_elems);
        ("recv_elems_max", `Int r.recv_busiest); ("recv_elems_total", `Int r.recv_total);
        ("lower_bound_recv_max", `Int r.lb_max); ("lower_bound_recv_total", `Int r.lb_total);
        ("launches", `Int 1); ("slices", `Int 0);
        ("proven", `List (List.map (fun (n, _) -> `String n) guarantees)) ])

let hybrid_report ~command ~guarantees (h : Xreport.hybrid) =
  let f = Xreport.figures h in
  let p = h.whole in
  let src_max, tgt_max = C.largest_boxes (Problem.source_layout p) (Problem.target_layout p) in
  let rec slices = function
    | Xreport.Collectives (r : Report.t) -> r.slices
    | Xreport.Exchange _ -> 0
    | Xreport.Hybrid h -> slices h.first + slices h.second
  in
  document ~command
    (problem p @ any_plan (Xreport.Hybrid h)
    @ [ ("peak_elems", `Int f.h_peak); ("src_elems", `Int src_max); ("tgt_elems", `Int tgt_max);
        ("global_elems", `Int (List.fold_left ( * ) 1 (C.global_shape p.src)));
        ("recv_elems_max", `Int f.h_recv_busiest); ("recv_elems_total", `Int f.h_recv_total);
        ("lower_bound_recv_max", `Int f.h_lb_max); ("lower_bound_recv_total", `Int f.h_lb_total);
        ("launches", `Int (Xreport.launches (Xreport.Hybrid h))); ("slices", `Int (slices (Xreport.Hybrid h)));
        ( "plan_file",
          `List (List.map (fun l -> `String l) (Costreport.plan_file_lines p (Xreport.splan (Xreport.Hybrid h)))) );
        ("proven", `List (List.map (fun (n, _) -> `String n) guarantees)) ])

let any_report ~command ~guarantees = function
  | Xreport.Collectives r -> report ~command ~guarantees r
  | Xreport.Exchange r -> exchange_report ~command ~guarantees r
  | Xreport.Hybrid h -> hybrid_report ~command ~guarantees h
