(* `redist show`: the block each device holds, from the core's
   [device_of_rank] and [dev_box] (ceil blocks: on an uneven dimension the
   last blocks are short or empty). *)

module C = Redist_core
module F = Front

let pad_table rows =
  let ncols = List.fold_left (fun acc r -> max acc (List.length r)) 0 rows in
  let width c = List.fold_left (fun acc r -> match List.nth_opt r c with Some s -> max acc (String.length s) | None -> acc) 0 rows in
  let widths = List.init ncols width in
  List.map
    (fun r -> String.concat "  " (List.mapi (fun c s -> Printf.sprintf "%*s" (List.nth widths c) s) r))
    rows

(* Cells of the block map list at most this many ranks. *)
let max_listed = 4

(* Per dimension, the (corner, extent) of device [c]'s box. *)
let box env ty c = C.dev_box (F.core_mesh env) ty c

(* The largest box's shape and size: the local shape on an even type. *)
let largest env ty =
  let m = F.core_mesh env in
  let sizes = List.init (C.mesh_size m) (fun r -> C.box_size (box env ty (C.device_of_rank m r))) in
  List.fold_left max 0 sizes

let show_span (lo, ext) = if ext = 0 then "empty" else Printf.sprintf "[%d, %d)" lo (lo + ext)

(* What one layout is: the mesh with its placement, the type, the shapes. *)
let summary ?(pending = (Dtype.Sum, [])) (pm : Problem.placed) (ty : C.ty) =
  let env = pm.env in
  let ty_text = F.show_ty env ty ^ F.show_pending env (fst pending) (snd pending) in
  let m = F.core_mesh env in
  let n = C.mesh_size m in
  if C.ty_wf m ty then
    Printf.sprintf "mesh %s (%d devices), type %s: global shape %s, local shape %s (%d elements per device)"
      (Problem.show_placed env pm.placement_text) n ty_text (F.show_shape (C.global_shape ty))
      (F.show_shape (C.local_shape m ty)) (C.local_size m ty)
  else
    Printf.sprintf "mesh %s (%d devices), type %s: global shape %s, ceil blocks (some short or empty), at most %d elements per device"
      (Problem.show_placed env pm.placement_text) n ty_text (F.show_shape (C.global_shape ty))
      (largest env ty)

let sharded_dims ty = List.filter (fun d -> fst (List.nth ty d) <> []) (List.init (List.length ty) Fun.id)

(* The dimensions the tables show: all of them up to two, else the sharded
   ones, with a line saying which are whole. *)
let shown_dims line sharded rank =
  if rank <= 2 then List.init rank Fun.id
  else begin
    let whole = List.filter (fun d -> not (List.mem d sharded)) (List.init rank Fun.id) in
    if sharded <> [] && whole <> [] then
      line (Printf.sprintf "sharded dims: %s; every device holds dims %s whole"
              (String.concat ", " (List.map string_of_int sharded))
              (String.concat ", " (List.map string_of_int whole)));
    sharded
  end

(* For one and two dimensions, the array cut into blocks, each block
   labelled with the world ranks that hold it. *)
let block_map line ~title (pm : Problem.placed) ty =
  let env = pm.env in
  let ranks = Array.of_list pm.ranks in
  let m = F.core_mesh env in
  let n = C.mesh_size m in
  let blocks = List.map (fun d -> C.shards m d) ty in
  if List.length ty <= 2 && sharded_dims ty <> [] && List.fold_left ( * ) 1 blocks <= 64 then begin
    (* A block is named by its chunk index along each dimension. *)
    let block_of c = List.map (fun d -> C.radix m c (fst d)) ty in
    let holders = Hashtbl.create 64 and spans = Hashtbl.create 64 in
    for r = n - 1 downto 0 do
      let c = C.device_of_rank m r in
      let k = block_of c in
      Hashtbl.replace holders k (ranks.(r) :: Option.value (Hashtbl.find_opt holders k) ~default:[]);
      List.iteri (fun d (j, span) -> Hashtbl.replace spans (d, j) span) (List.combine k (box env ty c))
    done;
    let cell k =
      let rs = Option.value (Hashtbl.find_opt holders k) ~default:[] in
      if List.length rs <= max_listed then String.concat "," (List.map string_of_int rs)
      else Printf.sprintf "%d,%d,..(%d ranks)" (List.nth rs 0) (List.nth rs 1) (List.length rs)
    in
    let span d i = show_span (Hashtbl.find spans (d, i)) in
    line title;
    let grid =
      match blocks with
      | [ p0 ] -> [ List.init p0 (span 0); List.init p0 (fun i -> cell [ i ]) ]
      | [ p0; p1 ] ->
          ("dim 0 \\ dim 1" :: List.init p1 (span 1))
          :: List.init p0 (fun i -> span 0 i :: List.init p1 (fun j -> cell [ i; j ]))
      | _ -> []
    in
    List.iter line (pad_table grid)
  end

(* [pm]: the mesh and the world rank of each device (position k holds mesh
   rank k, row-major); ranks are printed as world ranks. *)
(* The line that says what a type with pending axes holds. *)
let pending_line env (op, axes) =
  let names = String.concat ", " (List.map (F.axis_name env) axes) in
  let result = match op with Dtype.Sum -> "sum" | Prod -> "product" | Max -> "maximum" | Min -> "minimum" | Avg -> "average" in
  Printf.sprintf
    "pending %s over %s: each device holds a contribution to its box; the array is the %s over the devices that differ only in %s"
    (Dtype.op_name op) names result names

let render ?(pending = (Dtype.Sum, [])) (pm : Problem.placed) (ty : C.ty) =
  let env = pm.env in
  let ranks = Array.of_list pm.ranks in
  let m = F.core_mesh env in
  let b = Buffer.create 1024 in
  let line s = Buffer.add_string b s; Buffer.add_char b '\n' in
  line (summary ~pending pm ty);
  if snd pending <> [] then line (pending_line env pending);
  let sharded = sharded_dims ty in
  if sharded = [] then line "no dimension is sharded: every device holds the whole array";
  let shown = shown_dims line sharded (List.length ty) in
  let range c d = show_span (List.nth (box env ty c) d) in
  let header = "rank" :: List.map (fun (a : F.axis_info) -> a.name) env.axes @ List.map (Printf.sprintf "dim %d") shown in
  let rows =
    List.init (C.mesh_size m) (fun r ->
        let c = C.device_of_rank m r in
        string_of_int ranks.(r) :: List.map (fun (a : F.axis_info) -> string_of_int (c a.id)) env.axes
        @ List.map (range c) shown)
  in
  List.iter line (pad_table (header :: rows));
  block_map line ~title:"ranks holding each block:" pm ty;
  Buffer.contents b

(* The device of world rank [w] in a placed mesh, if it has one. *)
let device_of_world (pm : Problem.placed) =
  let m = F.core_mesh pm.env in
  let position = Hashtbl.create 64 in
  List.iteri (fun k w -> Hashtbl.replace position w k) pm.ranks;
  fun w -> Option.map (C.device_of_rank m) (Hashtbl.find_opt position w)

(* One row per world rank: for each side, its device's coordinates and
   [held device d] for each shown dimension d; "-" where the rank is not in
   that side's mesh. *)
let world_table line ~world ~shown sides =
  let columns (side, (pm : Problem.placed), held) =
    let device = device_of_world pm in
    let axes = String.concat "," (List.map (fun (a : F.axis_info) -> a.name) pm.env.axes) in
    let header = Printf.sprintf "%s (%s)" side axes :: List.map (Printf.sprintf "dim %d") shown in
    let cells w =
      match device w with
      | None -> "-" :: List.map (fun _ -> "-") shown
      | Some c ->
          String.concat "," (List.map (fun (a : F.axis_info) -> string_of_int (c a.id)) pm.env.axes)
          :: List.map (held c) shown
    in
    (header, cells)
  in
  let cols = List.map columns sides in
  let header = "rank" :: List.concat_map fst cols in
  let rows = List.init world (fun w -> string_of_int w :: List.concat_map (fun (_, cells) -> cells w) cols) in
  List.iter line (pad_table (header :: rows))

(* `show` of a problem: both layouts, and per world rank the box it holds
   before (source) and after (target); "-" where the rank is not in that
   mesh. *)
let render_problem (p : Problem.t) =
  let sides = [ ("source", Problem.source_placed p, p.src); ("target", Problem.target_placed p, p.tgt) ] in
  let b = Buffer.create 2048 in
  let line s = Buffer.add_string b s; Buffer.add_char b '\n' in
  let world = Problem.world p in
  line (Printf.sprintf "world ranks 0 to %d; %s" (world - 1) (Problem.show_meshes p));
  List.iter
    (fun (side, pm, ty, pending) -> line (Printf.sprintf "%s: %s" side (summary ~pending pm ty)))
    [ ("source", Problem.source_placed p, p.src, (p.op, p.src_pending)); ("target", Problem.target_placed p, p.tgt, (p.op, p.tgt_pending)) ];
  let rank = List.length p.src in
  let shown = shown_dims line (List.sort_uniq compare (sharded_dims p.src @ sharded_dims p.tgt)) rank in
  world_table line ~world ~shown
    (List.map (fun (side, (pm : Problem.placed), ty) -> (side, pm, fun c d -> show_span (List.nth (box pm.env ty c) d))) sides);
  List.iter (fun (side, pm, ty) -> block_map line ~title:(Printf.sprintf "%s: ranks holding each block:" side) pm ty) sides;
  Buffer.contents b

(* `show --json`: the type's shapes and, for every device, its world rank,
   its coordinates (in mesh order) and the box it holds (offset and extent
   per dimension). *)
let layout_fields ?(pending = (Dtype.Sum, [])) (pm : Problem.placed) (ty : C.ty) =
  let env = pm.env in
  let ranks = Array.of_list pm.ranks in
  let m = F.core_mesh env in
  let device r =
    let c = C.device_of_rank m r in
    `Assoc
      [ ("rank", `Int ranks.(r));
        ("coords", `List (List.map (fun (a : F.axis_info) -> `Int (c a.id)) env.F.axes));
        ("offset", `List (List.map (fun (lo, _) -> `Int lo) (box env ty c)));
        ("extent", `List (List.map (fun (_, ext) -> `Int ext) (box env ty c))) ]
  in
  let ints l = `List (List.map (fun n -> `Int n) l) in
  let op, axes = pending in
  [ ("type", `String (F.show_ty env ty ^ F.show_pending env op axes)) ]
  @ (if axes = [] then []
     else [ ("reduction", `String (Dtype.op_name op)); ("pending", `List (List.map (fun a -> `String (F.axis_name env a)) axes)) ])
  @ [ ("global_shape", ints (C.global_shape ty));
    ("local_shape", ints (List.map (C.block_size m) ty)); ("local_elems", `Int (largest env ty));
    ("devices", `List (List.init (C.mesh_size m) device)) ]

let json ?(pending = (Dtype.Sum, [])) (pm : Problem.placed) (ty : C.ty) =
  Json.document ~command:"show" (("mesh", Json.mesh pm.env) :: layout_fields ~pending pm ty)

(* A problem: both layouts, each with its placed mesh. *)
let json_problem (p : Problem.t) =
  let side (pm : Problem.placed) ty pending =
    `Assoc (("mesh", Json.placed_mesh pm.env pm.ranks) :: layout_fields ~pending pm ty)
  in
  Json.document ~command:"show"
    [ ("world", `Int (Problem.world p)); ("source", side (Problem.source_placed p) p.src (p.op, p.src_pending));
      ("target", side (Problem.target_placed p) p.tgt (p.op, p.tgt_pending)) ]

(* ---- composed cuts (Part 3) ----
   A device holds, per dimension, a union of intervals: the core's
   [c_intervals] ((start, length) of each, in local order); its local array
   is their product, of the core's [c_shape]. *)

(* At most this many intervals of one dimension are listed, then their count. *)
let max_intervals = 4

let show_intervals ivs =
  match ivs with
  | [] -> "empty"
  | _ ->
      let listed = List.filteri (fun i _ -> i < max_intervals) ivs in
      let text = String.concat " " (List.map show_span listed) in
      if List.length ivs > max_intervals then Printf.sprintf "%s .. (%d intervals)" text (List.length ivs) else text

let composed_dims (cty : C.cty) = List.filter (fun d -> fst (List.nth cty d) <> []) (List.init (List.length cty) Fun.id)

(* The largest local array of any device. *)
let largest_local m cty =
  List.fold_left (fun acc r -> max acc (List.fold_left ( * ) 1 (C.c_shape m cty (C.device_of_rank m r)))) 0
    (List.init (C.mesh_size m) Fun.id)

let composed_summary (pm : Problem.placed) (cty : C.cty) =
  let m = F.core_mesh pm.env in
  Printf.sprintf "mesh %s (%d devices), type %s: global shape %s, composed cuts (a device holds a union of intervals per dimension), at most %d elements per device"
    (Problem.show_placed pm.env pm.placement_text) (C.mesh_size m) (F.show_cty pm.env cty) (F.show_shape (List.map snd cty)) (largest_local m cty)

(* One row per device: its world rank, coordinates, local shape and the
   intervals it holds in each shown dimension. *)
let render_composed (pm : Problem.placed) (cty : C.cty) =
  let env = pm.env in
  let ranks = Array.of_list pm.ranks in
  let m = F.core_mesh env in
  let b = Buffer.create 1024 in
  let line s = Buffer.add_string b s; Buffer.add_char b '\n' in
  line (composed_summary pm cty);
  let shown = shown_dims line (composed_dims cty) (List.length cty) in
  let header = ("rank" :: List.map (fun (a : F.axis_info) -> a.name) env.axes) @ ("local shape" :: List.map (Printf.sprintf "dim %d") shown) in
  let rows =
    List.init (C.mesh_size m) (fun r ->
        let c = C.device_of_rank m r in
        let ivs = C.c_intervals m cty c in
        (string_of_int ranks.(r) :: List.map (fun (a : F.axis_info) -> string_of_int (c a.id)) env.axes)
        @ (F.show_shape (C.c_shape m cty c) :: List.map (fun d -> show_intervals (List.nth ivs d)) shown))
  in
  List.iter line (pad_table (header :: rows));
  Buffer.contents b

(* A problem with composed cuts: per world rank its source and target
   device and what it holds, "-" where the rank is not in that mesh. *)
let render_composed_problem (c : Problem.composed) =
  let p = c.meshes in
  let sides = [ ("source", Problem.source_placed p, c.csrc); ("target", Problem.target_placed p, c.ctgt) ] in
  let b = Buffer.create 2048 in
  let line s = Buffer.add_string b s; Buffer.add_char b '\n' in
  let world = Problem.world p in
  line (Printf.sprintf "world ranks 0 to %d; %s" (world - 1) (Problem.show_meshes p));
  List.iter (fun (side, pm, cty) -> line (Printf.sprintf "%s: %s" side (composed_summary pm cty))) sides;
  let shown = shown_dims line (List.sort_uniq compare (composed_dims c.csrc @ composed_dims c.ctgt)) (List.length c.csrc) in
  world_table line ~world ~shown
    (List.map
       (fun (side, (pm : Problem.placed), cty) ->
         let m = F.core_mesh pm.env in
         (side, pm, fun c d -> show_intervals (List.nth (C.c_intervals m cty c) d)))
       sides);
  Buffer.contents b

(* `show --json` of composed cuts: per device its world rank, coordinates,
   local shape and, per dimension, the intervals it holds as [start, end). *)
let composed_fields (pm : Problem.placed) (cty : C.cty) =
  let m = F.core_mesh pm.env in
  let ranks = Array.of_list pm.ranks in
  let ints l = `List (List.map (fun n -> `Int n) l) in
  let device r =
    let c = C.device_of_rank m r in
    `Assoc
      [ ("rank", `Int ranks.(r)); ("coords", ints (List.map (fun (a : F.axis_info) -> c a.id) pm.env.F.axes));
        ("local_shape", ints (C.c_shape m cty c));
        ("intervals", `List (List.map (fun ivs -> `List (List.map (fun (lo, n) -> ints [ lo; lo + n ]) ivs)) (C.c_intervals m cty c))) ]
  in
  [ ("type", `String (F.show_cty pm.env cty)); ("composed", `Bool true); ("global_shape", ints (List.map snd cty));
    ("local_elems", `Int (largest_local m cty));
    ("devices", `List (List.init (C.mesh_size m) device)) ]

let json_composed (pm : Problem.placed) (cty : C.cty) = Json.document ~command:"show" (("mesh", Json.mesh pm.env) :: composed_fields pm cty)

let json_composed_problem (c : Problem.composed) =
  let p = c.meshes in
  let side (pm : Problem.placed) cty = `Assoc (("mesh", Json.placed_mesh pm.env pm.ranks) :: composed_fields pm cty) in
  Json.document ~command:"show"
    [ ("world", `Int (Problem.world p)); ("source", side (Problem.source_placed p) c.csrc);
      ("target", side (Problem.target_placed p) c.ctgt) ]
