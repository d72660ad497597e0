(* From surface syntax to the extracted core's values: axis names become
   numbers, and every well-formedness condition is checked here first so that
   each error can name the offending part.  The core's own checks
   ([mesh_wf], [ty_wf], [check]) still run afterwards. *)

module C = Redist_core
module S = Syntax

(* Bad input: exit code 2. *)
exception Bad_input of string

let bad fmt = Printf.ksprintf (fun s -> raise (Bad_input s)) fmt

(* An axis of the (possibly refined) mesh.  [origin] is the axis of the
   user's mesh it refines (itself for an unrefined axis). *)
type axis_info = { id : int; name : string; size : int; origin : string }

(* [refined]: each axis refined away, with the sub-axes it became; a type
   may still name it, meaning those sub-axes in order.
   [axes]: the mesh, in order.  [used]: every name defined so far, including
   axes refined away, so that a name never means two axes.  [next_id]: the
   first id not used by any axis, past or present. *)
type env = { axes : axis_info list; used : string list; next_id : int; refined : (string * string list) list }

let core_mesh env = List.map (fun a -> (a.id, a.size)) env.axes

let find_name env n = List.find_opt (fun a -> a.name = n) env.axes

let axis_name env id =
  match List.find_opt (fun a -> a.id = id) env.axes with
  | Some a -> a.name
  | None -> Printf.sprintf "#%d" id

let axis_size env id =
  match List.find_opt (fun a -> a.id = id) env.axes with Some a -> a.size | None -> 0

let mesh_size env = List.fold_left (fun acc a -> acc * a.size) 1 env.axes

let show_mesh env =
  "{" ^ String.concat ", " (List.map (fun a -> Printf.sprintf "%s:%d" a.name a.size) env.axes) ^ "}"

(* ---- meshes ---- *)

let env_of_mesh ?(what = "--mesh") (m : S.mesh_axis list) =
  if m = [] then bad "%s: the mesh is empty; give at least one axis, e.g. {x:2}" what;
  if List.length m > Bounds.max_axes then
    bad "%s: %d axes; at most %d are supported" what (List.length m) Bounds.max_axes;
  List.iter
    (fun (a : S.mesh_axis) ->
      if String.contains a.axis.name '.' then
        bad "%s: column %d: axis name %S may not contain '.' (dotted names are for sub-axes)" what
          a.axis.ncol a.axis.name;
      if a.size = 0 then
        bad "%s: column %d: axis %s has size 0; sizes must be at least 1" what a.axis.ncol a.axis.name)
    m;
  let rec dups = function
    | [] -> ()
    | (a : S.mesh_axis) :: rest -> (
        match List.find_opt (fun (b : S.mesh_axis) -> b.axis.name = a.axis.name) rest with
        | Some b ->
            bad "%s: axis %s appears twice (columns %d and %d)" what a.axis.name a.axis.ncol b.axis.ncol
        | None -> dups rest)
  in
  dups m;
  (* Compared by division before multiplying, so that no product of axis
     sizes can wrap around to a small mesh. *)
  let _ =
    List.fold_left
      (fun acc (a : S.mesh_axis) ->
        if a.size > Bounds.device_limit / acc then
          bad "%s: more than %d devices; the tool supports at most %d (2^16) devices" what
            Bounds.device_limit Bounds.device_limit;
        acc * a.size)
      1 m
  in
  let axes = List.mapi (fun k (a : S.mesh_axis) -> { id = k; name = a.axis.name; size = a.size; origin = a.axis.name }) m in
  let env = { axes; used = List.map (fun a -> a.name) axes; next_id = List.length axes; refined = [] } in
  if not (C.mesh_wf (core_mesh env)) then bad "%s: rejected by the core's mesh_wf" what;
  env

(* ---- types ---- *)

(* [where] locates the name in messages: a column inside a type, nothing for
   the --dtype option. *)
let dtype_of ~what ?(where = "") name =
  match Dtype.of_name name with
  | Some d -> d
  | None -> bad "%s: %sunknown dtype %S (expected one of %s)" what where name Dtype.names

let dtype_at ~what (n : S.name) = dtype_of ~what ~where:(Printf.sprintf "column %d: " n.ncol) n.name

(* The type, or the first reason it is not well-formed on [env]'s mesh.
   [what] names the input in messages. *)
let rec expand env (n : S.name) =
  match List.assoc_opt n.name env.refined with
  | Some parts when find_name env n.name = None -> List.concat_map (fun p -> expand env { n with name = p }) parts
  | _ -> [ n ]

let check_ty ~what env (t : S.ty) : (C.ty, string) result =
  let err fmt = Printf.ksprintf (fun s -> Error (if what = "" then s else what ^ ": " ^ s)) fmt in
  let rec dims k seen acc = function
    | [] -> Ok (List.rev acc)
    | (d : S.dim) :: rest -> (
        let axes = List.concat_map (expand env) (Option.value d.axes ~default:[]) in
        if d.composed <> [] then
          err "dim %d (column %d): composed cuts ({x}{y}N, {x}%%B N) are a problem's layouts, planned by the region exchange, not a step's type" k d.dcol
        else if d.global = 0 then
          err "dim %d (column %d): global size 0; sizes must be at least 1" k d.dcol
        else
          match List.find_opt (fun (n : S.name) -> find_name env n.name = None) axes with
          | Some n -> err "dim %d: axis %s (column %d) is not in the mesh %s" k n.name n.ncol (show_mesh env)
          | None -> (
              let rec repeated seen = function
                | [] -> None
                | (n : S.name) :: ns -> (
                    match List.assoc_opt n.name seen with
                    | Some k' -> Some (n, k')
                    | None -> repeated ((n.name, k) :: seen) ns)
              in
              match repeated seen axes with
              | Some (n, k') when k' = k -> err "dim %d: axis %s is used twice" k n.name
              | Some (n, k') -> err "axis %s is used by dims %d and %d" n.name k' k
              | None -> (
                  let sizes = List.map (fun (n : S.name) -> (Option.get (find_name env n.name)).size) axes in
                  let p = List.fold_left ( * ) 1 sizes in
                  let product =
                    String.concat "*" (List.map (fun (n : S.name) -> "|" ^ n.name ^ "|") axes)
                  in
                  (* An uneven dimension is cut into ceil blocks (the last
                     ones short or empty); a stated local size is the full
                     block. *)
                  let block = C.ceil_div d.global p in
                  match d.local with
                  | Some n when n <> block ->
                      if axes = [] then err "dim %d: stated local size %d, but an unsharded dim has local size %d" k n d.global
                      else if d.global mod p = 0 then
                        err "dim %d: stated local size %d, but %d / %s = %d" k n d.global product block
                      else
                        err "dim %d: stated local size %d, but the ceil block of %d over %s = %d is %d" k n d.global
                          product p block
                  | _ ->
                        let ids = List.map (fun (n : S.name) -> (Option.get (find_name env n.name)).id) axes in
                        let seen = List.map (fun (n : S.name) -> (n.name, k)) axes @ seen in
                        dims (k + 1) seen ((ids, d.global) :: acc) rest)))
  in
  if t.dims = [] then err "the type has no dimensions"
  else if List.length t.dims > Bounds.max_dims then
    err "%d dimensions; at most %d are supported" (List.length t.dims) Bounds.max_dims
  else
    match dims 0 [] [] t.dims with
    | Error _ as e -> e
    | Ok ty -> (
        match
          List.fold_left (fun acc (d : S.dim) -> Bounds.mul acc d.global) 1 t.dims
        with
        | total when total < Bounds.size_limit ->
            if C.lty_wf (core_mesh env) ty then Ok ty
            else err "rejected by the core's lty_wf"
        | _ | (exception Bounds.Overflow) ->
            err "the array has too many elements (the product of the global sizes must be below 2^50)")

let ty_of_ast ~what env t =
  match check_ty ~what env t with Ok ty -> ty | Error msg -> raise (Bad_input msg)

let is_composed (t : S.ty) = List.exists (fun (d : S.dim) -> d.composed <> []) t.dims

(* A type with composed cuts as the core's cty.  Its other dimensions are
   checked as [check_ty] checks them (the composed ones stand unsharded
   there); then each cut's axes: in the mesh, in one cut only, and a
   cyclic block size of at least 1. *)
let cty_of_ast ~what env (t : S.ty) : C.cty =
  let plain = { t with dims = List.map (fun (d : S.dim) -> if d.composed = [] then d else { d with composed = []; local = None }) t.dims } in
  let ty = ty_of_ast ~what env plain in
  let ids names = List.map (fun (n : S.name) -> (Option.get (find_name env n.name)).id) names in
  let first_use = Hashtbl.create 8 in
  List.iter
    (fun (d : S.dim) -> List.iter (fun (n : S.name) -> Hashtbl.replace first_use n.name n.ncol) (Option.value d.axes ~default:[]))
    t.dims;
  let cdim k (d : S.dim) ((_, global) as dimty : C.dimty) : C.cdim =
    if d.composed = [] then C.cdim_of_dimty dimty
    else begin
      if d.local <> None then bad "%s: dim %d (column %d): a stated local size is for one ceil-block cut; write the composed cuts without it" what k d.dcol;
      let cut (c : S.cut) =
        let axes = List.concat_map (expand env) c.cut_axes in
        List.iter
          (fun (n : S.name) ->
            if find_name env n.name = None then
              bad "%s: dim %d: axis %s (column %d) is not in the mesh %s" what k n.name n.ncol (show_mesh env);
            match Hashtbl.find_opt first_use n.name with
            | Some col -> bad "%s: dim %d: axis %s (column %d) is in two cuts (also at column %d); an axis is in one cut of one dimension" what k n.name n.ncol col
            | None -> Hashtbl.replace first_use n.name n.ncol)
          axes;
        match c.cyclic with
        | None -> C.Block (ids axes)
        | Some (0, col) -> bad "%s: dim %d (column %d): block size 0 in a cyclic cut; a block has at least 1 element" what k col
        | Some (b, _) -> C.Cyclic (ids axes, b)
      in
      (List.map cut d.composed, global)
    end
  in
  let cty = List.mapi (fun k (d, dimty) -> cdim k d dimty) (List.combine t.dims ty) in
  if not (C.cty_wf (core_mesh env) cty) then bad "%s: rejected by the core's cty_wf" what;
  cty

(* The pending axes of [t] (its [sum{...}], [max{...}], ...) as ids, in the
   order written, for the well-formed [ty] it denotes on [env]'s mesh: each
   one an axis of the mesh, named once, and sharding no dimension (the
   core's pl_pending_wf, which Problem.pending_checked runs on the placed
   layout). *)
let pending_of_ast ~what env (t : S.ty) (ty : C.ty) : C.axis list =
  match t.pending with
  | None -> []
  | Some (op, names) ->
      let rec go seen = function
        | [] -> List.rev seen
        | (n : S.name) :: rest -> (
            match find_name env n.name with
            | None -> bad "%s: %s: axis %s (column %d) is not in the mesh %s" what op.name n.name n.ncol (show_mesh env)
            | Some a ->
                if List.mem a.id seen then bad "%s: %s: axis %s (column %d) is pending twice" what op.name n.name n.ncol;
                List.iteri
                  (fun d ((ids, _) : C.dimty) ->
                    if List.mem a.id ids then
                      bad "%s: %s: axis %s (column %d) also shards dim %d; an axis is either sharding or pending"
                        what op.name n.name n.ncol d)
                  ty;
                go (a.id :: seen) rest)
      in
      go [] names

(* The operation of [t]'s pending axes, if it has any. *)
let op_of_ast (t : S.ty) = Option.map (fun ((op : S.name), _) -> Option.get (Dtype.op_of_name op.name)) t.pending

(* [ max{y, z}] after a type with pending axes, "" without. *)
let show_pending env op (pending : C.axis list) =
  if pending = [] then ""
  else Printf.sprintf " %s{%s}" (Dtype.op_name op) (String.concat "," (List.map (axis_name env) pending))

(* ---- printing with names ---- *)

let extent env d = C.extent (core_mesh env) d

(* Names of [ids], with every complete run of an axis's sub-axes written as
   that axis (the inverse of [expand] for the user's axes). *)
let collapse env ids =
  let infos = List.map (fun id -> List.find_opt (fun a -> a.id = id) env.axes) ids in
  let rec go = function
    | [] -> []
    | None :: rest -> "?" :: go rest
    | Some a :: rest when a.origin <> a.name ->
        let leaves = List.filter (fun b -> b.origin = a.origin) env.axes in
        let n = List.length leaves in
        let run = List.filteri (fun k _ -> k < n) (Some a :: rest) in
        if List.length run = n && List.for_all2 (fun l r -> r = Some l) leaves run then
          a.origin :: go (List.filteri (fun k _ -> k >= n - 1) rest)
        else a.name :: go rest
    | Some a :: rest -> a.name :: go rest
  in
  go infos

let show_dim env ((ids, n) as d : C.dimty) =
  if ids = [] then string_of_int n
  else Printf.sprintf "%d{%s}%d" (C.block_size (core_mesh env) d) (String.concat "," (collapse env ids)) n

let show_ty env (t : C.ty) = "[" ^ String.concat ", " (List.map (show_dim env) t) ^ "]"

(* A dimension of composed cuts as written ({x}%4{y}30); one ceil-block
   cut as [show_dim] writes it. *)
let show_cdim env ((cuts, n) : C.cdim) =
  let names ids = "{" ^ String.concat "," (collapse env ids) ^ "}" in
  match cuts with
  | [ C.Block ids ] -> show_dim env (ids, n)
  | _ ->
      String.concat ""
        (List.map (function C.Block ids -> names ids | C.Cyclic (ids, b) -> Printf.sprintf "%s%%%d" (names ids) b) cuts)
      ^ (match List.rev cuts with C.Cyclic _ :: _ -> " " | _ -> "")
      ^ string_of_int n

let show_cty env (t : C.cty) = "[" ^ String.concat ", " (List.map (show_cdim env) t) ^ "]"

let show_shape l = "[" ^ String.concat ", " (List.map string_of_int l) ^ "]"

let show_collective env = function
  | C.DynSlice (d, x) -> Printf.sprintf "dyn_slice(%d, %s)" d (axis_name env x)
  | C.AllGather d -> Printf.sprintf "all_gather(%d)" d
  | C.AllToAll (s, t) -> Printf.sprintf "all_to_all(%d, %d)" s t
  | C.AllPermute t -> Printf.sprintf "all_permute(%s)" (show_ty env t)

(* ---- refinement ---- *)

(* [refine y = p0:s0 * ... * pk:sk] as the chain of splits y -> (p0, r1),
   r1 -> (p1, r2), ..., whose intermediate axes get fresh ids and no names. *)
let refine env ~line (axis : S.name) (parts : (S.name * int) list) : env * C.split list =
  let rej fmt = Printf.ksprintf (fun s -> raise (Bad_input (Printf.sprintf "line %d: %s" line s))) fmt in
  let target =
    match find_name env axis.name with
    | Some a -> a
    | None -> rej "refine: axis %s is not in the mesh %s" axis.name (show_mesh env)
  in
  let axes_after = List.length env.axes - 1 + List.length parts in
  if axes_after > Bounds.max_refined_axes then
    rej "refine %s: the refined mesh would have %d axes; at most %d are supported" axis.name axes_after
      Bounds.max_refined_axes;
  List.iteri
    (fun k ((n : S.name), sz) ->
      if List.mem n.name env.used then rej "refine %s: the name %s is already taken" axis.name n.name;
      if List.exists (fun ((m : S.name), _) -> m.name = n.name) (List.filteri (fun j _ -> j < k) parts) then
        rej "refine %s: sub-axis %s is named twice" axis.name n.name;
      if sz = 0 then rej "refine %s: sub-axis %s has size 0; sizes must be at least 1" axis.name n.name)
    parts;
  let product = List.fold_left (fun acc (_, sz) -> Bounds.mul acc sz) 1 parts in
  if product <> target.size then
    rej "refine %s: %s = %d, but |%s| = %d" axis.name
      (String.concat " * " (List.map (fun (_, sz) -> string_of_int sz) parts))
      product axis.name target.size;
  let n_parts = List.length parts in
  let ids = List.init n_parts (fun k -> env.next_id + k) in
  (* Intermediate ids follow the sub-axes' ids. *)
  let inter k = env.next_id + n_parts + k in
  let sizes = List.map snd parts in
  let rec chain k current rest_sizes ids =
    match (rest_sizes, ids) with
    | [ _; _ ], [ hi; lo ] ->
        [ { C.sp_axis = current; sp_hi = hi; sp_lo = lo; sp_q = List.hd rest_sizes; sp_r = List.nth rest_sizes 1 } ]
    | q :: rs, hi :: ids' ->
        let r = List.fold_left ( * ) 1 rs in
        let lo = inter k in
        { C.sp_axis = current; sp_hi = hi; sp_lo = lo; sp_q = q; sp_r = r } :: chain (k + 1) lo rs ids'
    | _ -> []
  in
  let splits = chain 0 target.id sizes ids in
  if not (C.refine_ok (core_mesh env) splits) then rej "refine %s: rejected by the core's refine_ok" axis.name;
  let subs =
    List.map2 (fun id ((n : S.name), sz) -> { id; name = n.name; size = sz; origin = target.origin }) ids parts
  in
  let axes = List.concat_map (fun a -> if a.id = target.id then subs else [ a ]) env.axes in
  let env' =
    { axes; used = env.used @ List.map (fun ((n : S.name), _) -> n.name) parts;
      next_id = env.next_id + (2 * n_parts);
      refined = (target.name, List.map (fun ((n : S.name), _) -> n.name) parts) :: env.refined }
  in
  (env', splits)

(* The environment of a refinement the planner chose: the leaves of an
   axis [y] are named [y.0], [y.1], ... major to minor (dotted names never
   clash with the user's). *)
let env_of_refinement env (rf : C.split list) =
  let step axes (sp : C.split) =
    List.concat_map
      (fun a ->
        if a.id = sp.sp_axis then
          [ { a with id = sp.sp_hi; size = sp.sp_q }; { a with id = sp.sp_lo; size = sp.sp_r } ]
        else [ a ])
      axes
  in
  let leaves = List.fold_left step env.axes rf in
  let split_origins =
    List.filter (fun o -> List.length (List.filter (fun a -> a.origin = o) leaves) > 1)
      (List.map (fun a -> a.name) env.axes)
  in
  let counters = Hashtbl.create 8 in
  let axes =
    List.map
      (fun a ->
        if List.mem a.origin split_origins then begin
          let k = Option.value (Hashtbl.find_opt counters a.origin) ~default:0 in
          Hashtbl.replace counters a.origin (k + 1);
          { a with name = Printf.sprintf "%s.%d" a.origin k }
        end
        else a)
      leaves
  in
  let max_id = List.fold_left (fun acc (sp : C.split) -> max acc (max sp.sp_hi sp.sp_lo)) (env.next_id - 1) rf in
  let refined =
    List.map (fun o -> (o, List.map (fun a -> a.name) (List.filter (fun a -> a.origin = o) axes))) split_origins
  in
  { axes; used = env.used @ List.map (fun a -> a.name) axes; next_id = max_id + 1; refined }

(* The refine lines that rebuild [env]'s refinement of [base] by name. *)
let refine_lines ~base env =
  List.filter_map
    (fun (o : axis_info) ->
      match List.filter (fun a -> a.origin = o.name) env.axes with
      | [ a ] when a.name = o.name -> None
      | subs ->
          Some (Printf.sprintf "refine %s = %s" o.name
                  (String.concat " * " (List.map (fun a -> Printf.sprintf "%s:%d" a.name a.size) subs))))
    base.axes

(* ---- JSON input ---- *)

(* Yojson's reader recurses once per nested array, object, tuple or
   variant: a deeply nested document would overflow the stack (in the C
   ABI's host, a crash), so every JSON input is read here, its nesting
   measured first by a loop over the text.  The documents read (profiles,
   redist/1 reports) nest at most 4 deep. *)
let max_json_depth = 64

(* The offset of the first bracket nested deeper than [limit], if any.
   Strings and comments are skipped; an unmatched closing bracket lowers the
   count to 0 at most (the reader stops there anyway), so the count is never
   below the reader's depth. *)
let json_too_deep ~limit text =
  let n = String.length text in
  let rec skip_string i = if i >= n then n else match text.[i] with '"' -> i + 1 | '\\' -> skip_string (i + 2) | _ -> skip_string (i + 1) in
  let skip_line i = match String.index_from_opt text i '\n' with Some k -> k + 1 | None -> n in
  let rec skip_block i = if i + 1 >= n then n else if text.[i] = '*' && text.[i + 1] = '/' then i + 2 else skip_block (i + 1) in
  let rec go i depth =
    if i >= n then None
    else
      match text.[i] with
      | '[' | '{' | '(' | '<' -> if depth = limit then Some i else go (i + 1) (depth + 1)
      | ']' | '}' | ')' | '>' -> go (i + 1) (max 0 (depth - 1))
      | '"' -> go (skip_string (i + 1)) depth
      | '/' when i + 1 < n && text.[i + 1] = '/' -> go (skip_line (i + 2)) depth
      | '/' when i + 1 < n && text.[i + 1] = '*' -> go (skip_block (i + 2)) depth
      | _ -> go (i + 1) depth
  in
  go 0 0

(* Line and column (from 1) of offset [i]. *)
let text_position text i =
  let line = ref 1 and start = ref 0 in
  String.iteri (fun k c -> if k < i && c = '\n' then (incr line; start := k + 1)) text;
  (!line, i - !start + 1)

(* [text] as JSON; [what] names the input in the one-line error. *)
let read_json ~what text =
  match json_too_deep ~limit:max_json_depth text with
  | Some i ->
      let line, col = text_position text i in
      bad "%s: nested deeper than %d levels at line %d, column %d" what max_json_depth line col
  | None -> (
      match Yojson.Safe.from_string text with
      | j -> j
      | exception Yojson.Json_error msg ->
          bad "%s: not JSON: %s" what (Excerpt.shorten_words (String.map (fun c -> if c = '\n' then ' ' else c) msg)))
