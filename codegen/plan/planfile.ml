(* Plan files: reading them, and explaining the checker's verdict in words.
   Syntax errors are bad input (exit 2); a plan that parses but does not
   take the source to the target is rejected (exit 1) with the line of the
   first failing step. *)

module C = Redist_core
module F = Front
module S = Syntax

let reject fmt = Printf.ksprintf (fun s -> raise (Report.Rejected s)) fmt

type step = { line : int; text : string; coll : (C.collective, string) result }

let show_step_ast = function
  | S.Slice (d, x) -> Printf.sprintf "dyn_slice(%d, %s)" d x.name
  | S.Gather d -> Printf.sprintf "all_gather(%d)" d
  | S.All_to_all (s, t) -> Printf.sprintf "all_to_all(%d, %d)" s t
  | S.Permute _ -> "all_permute"
  | S.Reduce_scatter (d, x) -> Printf.sprintf "reduce_scatter(%d, %s)" d x.name
  | S.All_reduce x -> Printf.sprintf "all_reduce(%s)" x.name
  | S.Add_pending x -> Printf.sprintf "add_pending(%s)" x.name

let resolve env = function
  | S.Slice (d, x) -> (
      match F.find_name env x.name with
      | Some a -> Ok (C.DynSlice (d, a.id))
      | None -> (
          match List.assoc_opt x.name env.refined with
          | Some parts ->
              Error (Printf.sprintf "axis %s was refined into %s: slice by one of those" x.name
                       (String.concat ", " parts))
          | None -> Error (Printf.sprintf "axis %s is not in the mesh %s" x.name (F.show_mesh env))))
  | S.Reduce_scatter _ | S.All_reduce _ | S.Add_pending _ ->
      Error "this step works on pending axes, but neither --from nor --to has sum{...} (or prod, max, min, avg)"
  | S.Gather d -> Ok (C.AllGather d)
  | S.All_to_all (s, t) -> Ok (C.AllToAll (s, t))
  | S.Permute t -> (
      match t.dtype with
      | Some n -> Error (Printf.sprintf "column %d: a type inside a plan takes no dtype (%s)" n.ncol n.name)
      | None -> (
          match t.pending with
          | Some (op, _) -> Error (Printf.sprintf "column %d: all_permute moves plain values; its type takes no %s{...}" op.ncol op.name)
          | None -> Result.map (fun ty -> C.AllPermute ty) (F.check_ty ~what:"" env t)))

(* Each via line nests a hybrid one level deeper ([check_any_items]
   recurses once per via line, and so do the reports of the result), so
   their number is bounded before any recursion: at every entry (check,
   the C ABI's redist_plan_check and redist_plan_from_json), this is where
   plan files are read. *)
let max_via_lines = 64

(* Refine lines first, then steps. *)
let parse text =
  let items =
    try S.plan_lines text
    with S.Plan_parse_error (line, col, msg) -> F.bad "--plan: line %d, column %d: %s" line col msg
  in
  let via_lines = List.filter_map (function line, S.Via _ -> Some line | _ -> None) items in
  Option.iter
    (fun line -> F.bad "--plan: line %d: more than %d via lines (each nests a hybrid one level deeper)" line max_via_lines)
    (List.nth_opt via_lines max_via_lines);
  items


(* A via line in a plan for pending sums, which has none. *)
let refuse_sums_via line =
  F.bad "--plan: line %d: a plan for pending sums takes no via line (its lines are reductions, then collectives, then add_pending lines, or the one line exchange)" line

let load (p : Problem.t) items =
  let n_steps = List.length (List.filter (function _, S.Step _ -> true | _ -> false) items) in
  if n_steps > Bounds.max_plan_steps then
    F.bad "--plan: %d collectives; at most %d are supported" n_steps Bounds.max_plan_steps;
  let devices = Redist_core.mesh_size (F.core_mesh p.env) in
  if n_steps * devices > Bounds.max_plan_rank_steps then
    F.bad "--plan: %d collectives on %d devices; checking is bounded to %d collectives x devices (%d collectives on this mesh)"
      n_steps devices Bounds.max_plan_rank_steps (Bounds.max_plan_rank_steps / devices);
  let rec go env rf steps = function
    | [] -> (env, rf, List.rev steps)
    | (line, S.Refine (axis, parts)) :: rest ->
        if steps <> [] then reject "line %d: refine lines must come before the first collective" line;
        let env, splits =
          try F.refine env ~line axis parts with F.Bad_input msg -> raise (Report.Rejected msg)
        in
        go env (rf @ splits) steps rest
    | (line, S.Step c) :: rest ->
        let coll = resolve env c in
        let text = match coll with Ok k -> F.show_collective env k | Error _ -> show_step_ast c in
        go env rf ({ line; text; coll } :: steps) rest
    | (line, S.Exchange) :: _ -> reject "line %d: exchange is a whole plan: it cannot be combined with collectives or refine lines" line
    (* [check_any_items] takes the via lines out first, and Sumplan.check
       refuses them before anything else. *)
    | (line, S.Via _) :: _ -> refuse_sums_via line
  in
  go p.env [] [] items

let take n l = List.filteri (fun k _ -> k < n) l

let rec oks = function [] -> [] | { coll = Ok k; _ } :: r -> k :: oks r | _ :: r -> oks r

(* The type before step [i]: the checker run on the first [i] steps ends there. *)
let type_before (p : Problem.t) env rf steps i =
  let m = F.core_mesh env in
  match C.check m (C.refine_ty rf p.src) (C.refine_ty rf p.tgt) (oks (take i steps)) with
  | C.OK _ -> C.refine_ty rf p.tgt
  | C.Error (C.WrongFinalType t) -> t
  | C.Error _ -> C.refine_ty rf p.src

let explain env before k (e : C.step_error) =
  let cur = F.show_ty env before in
  let size x = F.axis_size env x in
  let local d = F.extent env (C.dim_of before d) in
  match e with
  | C.DimOutOfRange d -> Printf.sprintf "dimension %d does not exist (the current type %s has %d)" d cur (List.length before)
  | C.AxisNotInMesh x -> Printf.sprintf "axis %s is not in the mesh %s" (F.axis_name env x) (F.show_mesh env)
  | C.AxisInUse x -> Printf.sprintf "axis %s is already used by the current type %s" (F.axis_name env x) cur
  | C.SliceNotDividing (d, x) ->
      Printf.sprintf "|%s| = %d does not divide the local size %d of dim %d (current type %s)"
        (F.axis_name env x) (size x) (local d) d cur
  | C.GatherUnsharded d ->
      let what = match k with C.AllToAll _ -> "move" | _ -> "gather" in
      Printf.sprintf "dim %d of the current type %s is not sharded: no axis to %s" d cur what
  | C.SameDims _ -> "all_to_all needs two different dimensions"
  | C.AllToAllNotDividing (t, x) ->
      Printf.sprintf "|%s| = %d does not divide the local size %d of target dim %d (current type %s)"
        (F.axis_name env x) (size x) (local t) t cur
  | C.PermuteIllFormed -> "the type is not well-formed on the mesh"
  | C.PermuteGlobalShape -> (
      match k with
      | C.AllPermute t ->
          Printf.sprintf "global shape %s differs from the current type %s's %s"
            (F.show_shape (C.global_shape t)) cur (F.show_shape (C.global_shape before))
      | _ -> "global shape differs")
  | C.PermuteLocalShape -> (
      match k with
      | C.AllPermute t ->
          let m = F.core_mesh env in
          Printf.sprintf "local shape %s differs from the current local shape %s (all_permute keeps the local shape)"
            (F.show_shape (C.local_shape m t)) (F.show_shape (C.local_shape m before))
      | _ -> "local shape differs")

(* The report of an accepted plan; [Rejected] with the first failing line
   otherwise. *)
let check_collectives (p : Problem.t) items =
  if not (Planning.collectives_apply p) then
    reject "%s; plan it with the one line exchange" (Planning.collectives_refusal p);
  let env, rf, steps = load p items in
  let at i = List.nth steps i in
  let fail_step i reason = reject "line %d: %s: %s" (at i).line (at i).text reason in
  let checker_failure = function
    | C.StepFailed (i, e) ->
        let k = List.nth (oks steps) i in
        fail_step i (explain env (type_before p env rf steps i) k e)
    | C.WrongFinalType t ->
        reject "the plan ends at %s, not at the target %s" (F.show_ty env t)
          (F.show_ty env (C.refine_ty rf p.tgt))
    | C.BadMesh | C.BadSource | C.BadTarget | C.GlobalShapeMismatch ->
        failwith "the core rejected a problem the front end accepted"
  in
  let first_bad =
    let rec find i = function
      | [] -> None
      | { coll = Error msg; _ } :: _ -> Some (i, msg)
      | _ :: r -> find (i + 1) r
    in
    find 0 steps
  in
  match first_bad with
  | Some (j, msg) -> (
      let m = F.core_mesh env in
      match C.check m (C.refine_ty rf p.src) (C.refine_ty rf p.tgt) (oks (take j steps)) with
      | C.Error (C.StepFailed _ as e) -> checker_failure e
      | _ -> fail_step j msg)
  | None -> (
      match Report.of_check p env rf (oks steps) with
      | C.OK r -> r
      | C.Error e -> checker_failure e)

(* A plan of any strategy: the one line [exchange], collectives, which
   need an even problem on one mesh at world rank 0 (xcheck's
   NotOneEvenMesh), or a hybrid: a plan of the source to the type of a
   [via TYPE] line (on the target mesh), then a plan of that type to the
   target, each checked as its own problem, the whole by [xcheck] (once, at
   the outermost via line: [nested] parts are checked as its parts). *)
let rec check_any_items ?(nested = false) (p : Problem.t) items =
  let rec split before = function
    | (line, S.Via t) :: after -> Some (List.rev before, line, t, after)
    | item :: after -> split (item :: before) after
    | [] -> None
  in
  match split [] items with
  | Some (before, line, t, after) -> (
      let mid_ty =
        match t.S.pending, t.S.dtype with
        | Some (op, _), _ -> reject "line %d, column %d: a via type takes no %s{...}" line op.ncol op.name
        | None, Some n -> reject "line %d, column %d: a via type takes no dtype (%s)" line n.ncol n.name
        | None, None -> (
            match F.check_ty ~what:"" p.tgt_env t with
            | Ok ty -> ty
            | Error msg -> reject "line %d: the via type: %s" line msg)
      in
      let mid = { C.ly_mesh = (Problem.target_layout p).ly_mesh; ly_ty = mid_ty } in
      if not (C.layouts_wf (Problem.source_layout p) mid) then
        reject "line %d: the via type is not a layout of the array on the target mesh" line;
      let first, second = Problem.through p mid in
      let a = check_any_items ~nested:true first before and b = check_any_items ~nested:true second after in
      if nested then Xreport.Hybrid (Xreport.nested_hybrid p mid a b)
      else
        match Xreport.of_hybrid p mid a b with
        | C.OK h -> Xreport.Hybrid h
        | C.Error _ -> reject "line %d: the verified checker rejects the hybrid through this type" line)
  | None -> (
      match items with
      | [ (_, S.Exchange) ] -> (
          match Xreport.of_exchange p with
          | C.OK r -> Xreport.Exchange r
          | C.Error _ -> failwith "xcheck rejected layouts the front end accepted")
      | items -> Xreport.Collectives (check_collectives p items))

let check_any (p : Problem.t) text = check_any_items p (parse text)

(* Collectives only. *)
let check (p : Problem.t) text = check_collectives p (parse text)
