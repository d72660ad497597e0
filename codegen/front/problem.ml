(* A redistribution problem read from the command line: the source and
   target placed meshes (one mesh at world rank 0 with --mesh), source and
   target types, element type and the planning strategy. *)

module C = Redist_core
module F = Front
module S = Syntax

(* A mesh and the world rank of each of its devices, row-major. *)
type placed = { env : F.env; ranks : int list; placement_text : string option }

type t = {
  env : F.env;       (* the user's mesh; the source mesh of a cross-mesh problem *)
  tgt_env : F.env;   (* the target mesh: [env] for one mesh *)
  src_ranks : int list;
  tgt_ranks : int list;
  one_mesh : bool;   (* given with --mesh *)
  src_placement : string option;  (* the placements as written, for printing *)
  tgt_placement : string option;
  src : C.ty;
  tgt : C.ty;
  src_pending : C.axis list;  (* the pending axes of --from ([sum{...}], [max{...}], ...), of the source mesh *)
  tgt_pending : C.axis list;  (* of --to, of the target mesh *)
  op : Dtype.op;              (* the one operation of both sides' pending axes (sum without any) *)
  dtype : Dtype.t;
  elem_bytes : int;
  strategy : C.strategy;
}

let parse ~what f s =
  try f s with Syntax.Parse_error (col, msg) -> F.bad "%s: column %d: %s" what col msg

let mesh text = F.env_of_mesh (parse ~what:"--mesh" Syntax.mesh text)

let strategies = [ ("collectives", C.StratCollectives); ("exchange", C.StratExchange); ("auto", C.StratAuto) ]

let strategy_name s = fst (List.find (fun (_, v) -> v = s) strategies)

(* The world ranks of a placed mesh, each checked: in range, none twice,
   one per device. *)
let placed ~what text =
  let pm = parse ~what Syntax.placed_mesh text in
  let env = F.env_of_mesh ~what pm.mesh_axes in
  let devices = F.mesh_size env in
  let ranks, placement_text =
    match pm.placement with
    | None -> (List.init devices Fun.id, None)
    | Some (S.At k) ->
        if k + devices > Bounds.device_limit then
          F.bad "%s: column %d: ranks %d to %d are beyond the largest world, %d ranks" what pm.pcol k
            (k + devices - 1) Bounds.device_limit;
        (C.seq k devices, Some (Printf.sprintf "@ %d" k))
    | Some (S.Ranks rs) ->
        if List.length rs <> devices then
          F.bad "%s: the rank list has %d ranks but the mesh %s has %d devices" what (List.length rs)
            (F.show_mesh env) devices;
        (* The column where each rank was first seen: one pass, not a
           search of the list per rank (65,536-device lists). *)
        let first_column = Hashtbl.create devices in
        List.iter
          (fun (r, col) ->
            if r >= Bounds.device_limit then
              F.bad "%s: column %d: rank %d is beyond the largest world, %d ranks" what col r Bounds.device_limit;
            match Hashtbl.find_opt first_column r with
            | Some col' -> F.bad "%s: rank %d appears twice in the rank list (columns %d and %d)" what r col' col
            | None -> Hashtbl.add first_column r col)
          rs;
        let ranks = List.map fst rs in
        (ranks, Some ("@ [" ^ String.concat ", " (List.map string_of_int ranks) ^ "]"))
  in
  if not (C.pmesh_wf { C.pm_mesh = F.core_mesh env; pm_ranks = ranks }) then
    F.bad "%s: rejected by the core's pmesh_wf" what;
  { env; ranks; placement_text }

(* What messages call each input: the command's flags, or the arguments
   of the C ABI's redist_plan_create_with. *)
type names = { mesh_name : string; from_mesh_name : string; to_mesh_name : string; from_name : string;
               to_name : string; dtype_name : string }

let flag_names =
  { mesh_name = "--mesh"; from_mesh_name = "--from-mesh"; to_mesh_name = "--to-mesh"; from_name = "--from";
    to_name = "--to"; dtype_name = "--dtype" }

(* The dtype: from --dtype and the types' prefixes, which must agree;
   f32 when none is given. *)
let resolve_dtype ~names ~flag prefixes =
  let given =
    (match flag with Some d -> [ (names.dtype_name, F.dtype_of ~what:names.dtype_name d) ] | None -> [])
    @ List.filter_map
        (fun (what, (t : Syntax.ty)) -> Option.map (fun n -> (what, F.dtype_at ~what n)) t.dtype)
        prefixes
  in
  match given with
  | [] -> Dtype.default
  | (w0, d0) :: rest ->
      List.iter (fun (w, (d : Dtype.t)) -> if d <> d0 then F.bad "%s says %s but %s says %s" w0 d0.name w d.name) rest;
      d0

let layout env ranks ty = { C.ly_mesh = { C.pm_mesh = F.core_mesh env; pm_ranks = ranks }; ly_ty = ty }

(* The pending-sum axes of a type on a placed mesh, checked by the front
   end (naming the culprit) and then by the core's pl_pending_wf. *)
let pending_checked ~what (pm : placed) ast ty =
  let pending = F.pending_of_ast ~what pm.env ast ty in
  if not (C.pl_pending_wf (layout pm.env pm.ranks ty) pending) then F.bad "%s: rejected by the core's pl_pending_wf" what;
  pending

(* Refuses an operation the element type cannot do (every entry point:
   plan, gen, run, show and the C ABI). *)
let check_op ~what (dtype : Dtype.t) op =
  if not (Dtype.computes dtype op) then
    F.bad "%s: %s{..} of %s: the runtime computes %s only of %s" what (Dtype.op_name op) dtype.name (Dtype.op_name op)
      (Dtype.computing_names op)

(* The operation of the pending axes: the one both types name (DTensor
   refuses mixed ones too), which the element type must compute. *)
let resolve_op ~names (dtype : Dtype.t) (from_ast, src_pending) (to_ast, tgt_pending) =
  let named = List.filter_map (fun (what, ast, pending) -> if pending = [] then None else Option.map (fun op -> (what, op)) (F.op_of_ast ast))
      [ (names.from_name, from_ast, src_pending); (names.to_name, to_ast, tgt_pending) ] in
  match named with
  | [] -> Dtype.Sum
  | (w0, op) :: rest ->
      List.iter
        (fun (w, op') ->
          if op' <> op then
            F.bad "%s is %s{..} but %s is %s{..}: one operation per problem" w0 (Dtype.op_name op) w (Dtype.op_name op'))
        rest;
      check_op ~what:w0 dtype op;
      op

(* Without composed cuts, an avg target's members each hold the value, as
   DTensor's Partial("avg") after Replicate, which add_pending gives and
   Part 2's reducing exchange, whose other members hold the identity,
   cannot: such a problem is planned by the collectives.  (With composed
   cuts the reducing region exchange fills every member: Lowercutsavg.v.) *)
let check_avg_target ~names ~strategy ~one_mesh op tgt_pending =
  if op = Dtype.Avg && tgt_pending <> [] then begin
    if strategy = C.StratExchange then
      F.bad "%s: avg{..} as a target is planned by the collectives (each member holds the value; the reducing exchange leaves it on one): use --strategy collectives or auto" names.to_name;
    if not one_mesh then
      F.bad "%s: avg{..} as a target needs the collectives (each member holds the value), which work on one mesh" names.to_name
  end

(* The meshes as given on the command line. *)
type meshes = One of string | Two of string * string

let meshes_of_flags ~mesh ~from_mesh ~to_mesh =
  match (mesh, from_mesh, to_mesh) with
  | Some m, None, None -> One m
  | None, Some f, Some t -> Two (f, t)
  | Some _, _, _ -> F.bad "--mesh cannot be combined with --from-mesh or --to-mesh (give one mesh, or both of those)"
  | None, Some _, None -> F.bad "--from-mesh needs --to-mesh (or give --mesh for one mesh)"
  | None, None, Some _ -> F.bad "--to-mesh needs --from-mesh (or give --mesh for one mesh)"
  | None, None, None -> F.bad "no mesh: give --mesh, or --from-mesh and --to-mesh"

(* The largest figure computed from a problem is a rank's live bytes: at
   most (4 + the largest pending group) arrays of the whole array's bytes
   (source, destination and two intermediates; the reducing exchange stages
   one target box per group member).  Refused where that would not fit
   OCaml's 63-bit integers, instead of wrapping. *)
let check_figures_fit ~elem_bytes shape pendings =
  let group (env, pending) = List.fold_left (fun acc a -> acc * F.axis_size env a) 1 pending in
  let arrays = 4 + List.fold_left (fun acc pe -> max acc (group pe)) 1 pendings in
  let elems = List.fold_left ( * ) 1 shape in
  match Bounds.mul (Bounds.mul elems elem_bytes) arrays with
  | _ -> ()
  | exception Bounds.Overflow ->
      F.bad "the array's %s bytes times %d (4 + the largest pending group) exceed 2^62: a rank's live bytes would not fit redist's 63-bit integers"
        (Bounds.mul_decimal elems elem_bytes) arrays

(* A problem where either side has composed cuts (Part 3): planned by the
   region exchange (Lowercuts.v), or with pending axes by the reducing
   region exchange (Lowercutsred.v); [meshes] carries the pending axes and
   the operation. *)
type composed = {
  meshes : t;  (* the meshes, their placements, the element type; its src and tgt are unsharded *)
  csrc : C.cty;
  ctgt : C.cty;
}

type any = Plain of t | Composed of composed

let clayout env ranks cty = { C.cl_mesh = { C.pm_mesh = F.core_mesh env; pm_ranks = ranks }; cl_ty0 = cty }
let source_clayout c = clayout c.meshes.env c.meshes.src_ranks c.csrc
let target_clayout c = clayout c.meshes.tgt_env c.meshes.tgt_ranks c.ctgt

let make_composed ~names ~(source : placed) ~(target : placed) ~one_mesh ~strategy ~dtype (from_ast : Syntax.ty) (to_ast : Syntax.ty) =
  if strategy <> C.StratAuto && strategy <> C.StratExchange then
    F.bad "--strategy %s: a problem with composed cuts is planned by the region exchange; use --strategy exchange or auto"
      (strategy_name strategy);
  let csrc = F.cty_of_ast ~what:names.from_name source.env from_ast in
  let ctgt = F.cty_of_ast ~what:names.to_name target.env to_ast in
  if List.length csrc <> List.length ctgt then
    F.bad "%s has %d dimensions but %s has %d" names.from_name (List.length csrc) names.to_name (List.length ctgt);
  let gs = List.map snd csrc and gt = List.map snd ctgt in
  if gs <> gt then
    F.bad "global shapes differ: %s is %s, %s is %s" names.from_name (F.show_shape gs) names.to_name (F.show_shape gt);
  let dtype = resolve_dtype ~names ~flag:dtype [ (names.from_name, from_ast); (names.to_name, to_ast) ] in
  (* The axes each dimension's cuts name, for the front end's "also shards" check. *)
  let cut_axes (t : C.cty) = List.map (fun (ks, n) -> (List.concat_map C.cut_axes ks, n)) t in
  let src_pending = F.pending_of_ast ~what:names.from_name source.env from_ast (cut_axes csrc) in
  let tgt_pending = F.pending_of_ast ~what:names.to_name target.env to_ast (cut_axes ctgt) in
  let op = resolve_op ~names dtype (from_ast, src_pending) (to_ast, tgt_pending) in
  check_figures_fit ~elem_bytes:dtype.bytes gs [ (source.env, src_pending); (target.env, tgt_pending) ];
  let unsharded = List.map (fun n -> ([], n)) gs in
  let meshes =
    { env = source.env; tgt_env = target.env; src_ranks = source.ranks; tgt_ranks = target.ranks; one_mesh;
      src_placement = source.placement_text; tgt_placement = target.placement_text; src = unsharded; tgt = unsharded;
      src_pending; tgt_pending; op; dtype; elem_bytes = dtype.bytes; strategy = C.StratExchange }
  in
  let c = { meshes; csrc; ctgt } in
  if not (C.cpending_wf (source_clayout c) src_pending) then F.bad "%s: rejected by the core's cpending_wf" names.from_name;
  if not (C.cpending_wf (target_clayout c) tgt_pending) then F.bad "%s: rejected by the core's cpending_wf" names.to_name;
  c

let make_plain ~names ~(source : placed) ~(target : placed) ~one_mesh ~strategy ~dtype from_ast to_ast =
  let src = F.ty_of_ast ~what:names.from_name source.env from_ast in
  let tgt = F.ty_of_ast ~what:names.to_name target.env to_ast in
  if List.length src <> List.length tgt then
    F.bad "%s has %d dimensions but %s has %d" names.from_name (List.length src) names.to_name (List.length tgt);
  let gs = C.global_shape src and gt = C.global_shape tgt in
  if gs <> gt then
    F.bad "global shapes differ: %s is %s, %s is %s" names.from_name (F.show_shape gs) names.to_name
      (F.show_shape gt);
  let dtype = resolve_dtype ~names ~flag:dtype [ (names.from_name, from_ast); (names.to_name, to_ast) ] in
  let src_pending = pending_checked ~what:names.from_name source from_ast src in
  let tgt_pending = pending_checked ~what:names.to_name target to_ast tgt in
  let op = resolve_op ~names dtype (from_ast, src_pending) (to_ast, tgt_pending) in
  check_avg_target ~names ~strategy ~one_mesh op tgt_pending;
  let strategy = if op = Dtype.Avg && tgt_pending <> [] then C.StratCollectives else strategy in
  let elem_bytes = dtype.bytes in
  check_figures_fit ~elem_bytes (C.global_shape src) [ (source.env, src_pending); (target.env, tgt_pending) ];
  { env = source.env; tgt_env = target.env; src_ranks = source.ranks; tgt_ranks = target.ranks; one_mesh;
    src_placement = source.placement_text; tgt_placement = target.placement_text;
    src; tgt; src_pending; tgt_pending; op; dtype; elem_bytes; strategy }

let make_any ~names ~meshes ~strategy ~from ~to_ ~dtype =
  let source, target, one_mesh =
    match meshes with
    | One m -> let pm = placed ~what:names.mesh_name m in (pm, pm, true)
    | Two (f, t) -> (placed ~what:names.from_mesh_name f, placed ~what:names.to_mesh_name t, false)
  in
  let from_ast = parse ~what:names.from_name Syntax.ty from in
  let to_ast = parse ~what:names.to_name Syntax.ty to_ in
  if F.is_composed from_ast || F.is_composed to_ast then
    Composed (make_composed ~names ~source ~target ~one_mesh ~strategy ~dtype from_ast to_ast)
  else Plain (make_plain ~names ~source ~target ~one_mesh ~strategy ~dtype from_ast to_ast)

(* A problem without composed cuts: what gen, run and show take. *)
let make_named ~names ~meshes ~strategy ~from ~to_ ~dtype =
  match make_any ~names ~meshes ~strategy ~from ~to_ ~dtype with
  | Plain p -> p
  | Composed _ ->
      F.bad "%s, %s: composed cuts ({x}{y}N, {x}%%B N) are not taken here yet (they are by redist plan, check, gen, run and show and by redist_plan_create; not in place)"
        names.from_name names.to_name

(* The problem as the command reads it, messages naming its flags. *)
let make_placed = make_named ~names:flag_names

(* Whether either type has pending sums: such problems are planned by
   [plan_sums] (Sumplan), not by [plan_with]. *)
let has_pending p = p.src_pending <> [] || p.tgt_pending <> []

(* One mesh at world rank 0, planned by the collectives as before strategies. *)
let make ~mesh ~from ~to_ ~dtype =
  make_placed ~meshes:(One mesh) ~strategy:C.StratCollectives ~from ~to_ ~dtype

(* What the runtime's fixed-size arrays hold (gen and run). *)
let check_runtime_limits ?(names = flag_names) p =
  if List.length p.src > Bounds.max_rank_gen then
    F.bad "%s: %d dimensions; the runtime handles at most %d" names.from_name (List.length p.src) Bounds.max_rank_gen;
  List.iter
    (fun (what, (env : F.env)) ->
      if List.length env.axes > Bounds.max_rank_gen then
        F.bad "%s: %d axes; the runtime's mesh has at most %d" what (List.length env.axes) Bounds.max_rank_gen)
    [ ((if p.one_mesh then names.mesh_name else names.from_mesh_name), p.env); (names.to_mesh_name, p.tgt_env) ]

let source_placed (p : t) = { env = p.env; ranks = p.src_ranks; placement_text = p.src_placement }
let target_placed (p : t) = { env = p.tgt_env; ranks = p.tgt_ranks; placement_text = p.tgt_placement }

(* Who keeps the value where an axis becomes pending ([Sums.fill], the
   runtime's every_member_keeps): every member for max, min and avg, member
   0 with the identity on the others for sum and prod. *)
let fill p = match p.op with Dtype.Max | Dtype.Min | Dtype.Avg -> C.KeepAll | Dtype.Sum | Dtype.Prod -> C.KeepOne

let source_layout p = layout p.env p.src_ranks p.src
let target_layout p = layout p.tgt_env p.tgt_ranks p.tgt

(* The two problems of a hybrid through the intermediate layout [mid], which
   is on the target's placed mesh (as the core's candidates and plan files'
   [via] lines build it): the source to [mid], and [mid] to the target. *)
let through p (mid : C.layout) =
  if mid.ly_mesh <> (target_layout p).ly_mesh then failwith "a hybrid's intermediate is not on the target mesh";
  ( { p with tgt = mid.ly_ty },
    { p with env = p.tgt_env; src_ranks = p.tgt_ranks; src_placement = p.tgt_placement; src = mid.ly_ty } )

(* World ranks 0 .. world - 1 take part: every rank of either mesh. *)
let world p = 1 + List.fold_left max 0 (p.src_ranks @ p.tgt_ranks)

let show_placed env placement =
  F.show_mesh env ^ match placement with Some t -> " " ^ t | None -> ""

let show_meshes p =
  if p.one_mesh then "mesh " ^ show_placed p.env p.src_placement
  else
    Printf.sprintf "from mesh %s to mesh %s" (show_placed p.env p.src_placement)
      (show_placed p.tgt_env p.tgt_placement)

(* The runtime's ProblemDigest (redist.hpp) of a plan of [p] whose steps,
   in plan-file syntax, are [plan_lines]: 64-bit digests of the meshes with
   their world ranks, the two layouts with their pending axes, the element
   type, and the plan with the version of redist that made it.  Every rank
   agrees on it before collective work, so the parts are what an error
   can name. *)
type digest = { meshes : int64; layouts : int64; element : int64; plan : int64 }

let digest p ~plan_lines =
  let d64 parts =
    Int64.of_string ("0x" ^ String.sub (Digest.to_hex (Digest.string (String.concat "\n" parts))) 0 16)
  in
  let ranks l = String.concat "," (List.map string_of_int l) in
  { meshes = d64 [ F.show_mesh p.env; ranks p.src_ranks; F.show_mesh p.tgt_env; ranks p.tgt_ranks ];
    layouts =
      d64 [ F.show_ty p.env p.src ^ F.show_pending p.env p.op p.src_pending;
            F.show_ty p.tgt_env p.tgt ^ F.show_pending p.tgt_env p.op p.tgt_pending ];
    element = d64 [ p.dtype.name; string_of_int p.elem_bytes ];
    plan = d64 (Version.version :: plan_lines) }

(* The digest as a C++ initializer of ::redist::ProblemDigest. *)
let digest_literal d =
  Printf.sprintf "::redist::ProblemDigest{0x%016LxULL, 0x%016LxULL, 0x%016LxULL, 0x%016LxULL}" d.meshes d.layouts
    d.element d.plan
