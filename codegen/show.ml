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

(* [pm]: the mesh and the world rank of each device (position k holds mesh
   rank k, row-major); ranks are printed as world ranks. *)
(* The line that says what a type with pending sums holds. *)
let pending_line env pending =
  let names = String.concat ", " (List.map (F.axis_name env) pending) in
  Printf.sprintf
    "pending sums over %s: each device holds a contribution to its box; the array is the sum over the devices that differ only in %s"
    names names

let render ?(pending = []) (pm : Problem.placed) (ty : C.ty) =
  let env = pm.env in
  let ranks = Array.of_list pm.ranks in
  let world k = ranks.(k) in
  let m = F.core_mesh env in
  let n = C.mesh_size m in
  let b = Buffer.create 1024 in
  let line s = Buffer.add_string b s; Buffer.add_char b '\n' in
  let rank = List.length ty in
  if C.ty_wf m ty then
    line
      (Printf.sprintf "mesh %s (%d devices), type %s: global shape %s, local shape %s (%d elements per device)"
         (Problem.show_placed env pm.placement_text) n (F.show_ty env ty ^ F.show_pending env pending) (F.show_shape (C.global_shape ty))
         (F.show_shape (C.local_shape m ty)) (C.local_size m ty))
  else
    line
      (Printf.sprintf "mesh %s (%d devices), type %s: global shape %s, ceil blocks (some short or empty), at most %d elements per device"
         (Problem.show_placed env pm.placement_text) n (F.show_ty env ty ^ F.show_pending env pending) (F.show_shape (C.global_shape ty))
         (largest env ty));
  if pending <> [] then line (pending_line env pending);
  let sharded = List.filter (fun d -> fst (List.nth ty d) <> []) (List.init rank Fun.id) in
  let shown = if rank <= 2 then List.init rank Fun.id else sharded in
  if sharded = [] then line "no dimension is sharded: every device holds the whole array"
  else if rank > 2 then begin
    let whole = List.filter (fun d -> not (List.mem d sharded)) (List.init rank Fun.id) in
    if whole <> [] then
      line (Printf.sprintf "sharded dims: %s; every device holds dims %s whole"
              (String.concat ", " (List.map string_of_int sharded))
              (String.concat ", " (List.map string_of_int whole)))
  end;
  let show_span (lo, ext) = if ext = 0 then "empty" else Printf.sprintf "[%d, %d)" lo (lo + ext) in
  let range c d = show_span (List.nth (box env ty c) d) in
  let header = "rank" :: List.map (fun (a : F.axis_info) -> a.name) env.axes @ List.map (Printf.sprintf "dim %d") shown in
  let rows =
    List.init n (fun r ->
        let c = C.device_of_rank m r in
        string_of_int (world r) :: List.map (fun (a : F.axis_info) -> string_of_int (c a.id)) env.axes
        @ List.map (range c) shown)
  in
  List.iter line (pad_table (header :: rows));
  (* For one and two dimensions, also the array cut into blocks, each block
     labelled with the ranks that hold it. *)
  let blocks = List.map (fun d -> C.shards m d) ty in
  if rank <= 2 && sharded <> [] && List.fold_left ( * ) 1 blocks <= 64 then begin
    (* A block is named by its chunk index along each dimension. *)
    let block_of c = List.map (fun d -> C.radix m c (fst d)) ty in
    let holders = Hashtbl.create 64 and spans = Hashtbl.create 64 in
    for r = n - 1 downto 0 do
      let c = C.device_of_rank m r in
      let k = block_of c in
      Hashtbl.replace holders k (world r :: Option.value (Hashtbl.find_opt holders k) ~default:[]);
      List.iteri (fun d (j, span) -> Hashtbl.replace spans (d, j) span) (List.combine k (box env ty c))
    done;
    let cell k =
      let rs = Option.value (Hashtbl.find_opt holders k) ~default:[] in
      if List.length rs <= max_listed then String.concat "," (List.map string_of_int rs)
      else Printf.sprintf "%d,%d,..(%d ranks)" (List.nth rs 0) (List.nth rs 1) (List.length rs)
    in
    let span d i = show_span (Hashtbl.find spans (d, i)) in
    line "ranks holding each block:";
    let grid =
      match blocks with
      | [ p0 ] -> [ List.init p0 (span 0); List.init p0 (fun i -> cell [ i ]) ]
      | [ p0; p1 ] ->
          ("dim 0 \\ dim 1" :: List.init p1 (span 1))
          :: List.init p0 (fun i -> span 0 i :: List.init p1 (fun j -> cell [ i; j ]))
      | _ -> []
    in
    List.iter line (pad_table grid)
  end;
  Buffer.contents b

(* `show --json`: the type's shapes and, for every device, its coordinates
   (in mesh order) and the box it holds (offset and extent per dimension). *)
let json ?(pending = []) (pm : Problem.placed) (ty : C.ty) =
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
  Json.document ~command:"show"
    [ ("mesh", Json.mesh env); ("type", `String (F.show_ty env ty ^ F.show_pending env pending));
      ("pending", `List (List.map (fun a -> `String (F.axis_name env a)) pending));
      ("global_shape", ints (C.global_shape ty));
      ("local_shape", ints (List.map (C.block_size m) ty)); ("local_elems", `Int (largest env ty));
      ("devices", `List (List.init (C.mesh_size m) device)) ]
