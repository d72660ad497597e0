(* `redist show`: the block each device holds, from the core's
   [device_of_rank], [offset] and [extent]. *)

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

let render env (ty : C.ty) =
  let m = F.core_mesh env in
  let n = C.mesh_size m in
  let b = Buffer.create 1024 in
  let line s = Buffer.add_string b s; Buffer.add_char b '\n' in
  let rank = List.length ty in
  line
    (Printf.sprintf "mesh %s (%d devices), type %s: global shape %s, local shape %s (%d elements per device)"
       (F.show_mesh env) n (F.show_ty env ty) (F.show_shape (C.global_shape ty))
       (F.show_shape (C.local_shape m ty)) (C.local_size m ty));
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
  let range c d =
    let dd = List.nth ty d in
    let off = C.offset m dd c in
    Printf.sprintf "[%d, %d)" off (off + C.extent m dd)
  in
  let header = "rank" :: List.map (fun (a : F.axis_info) -> a.name) env.axes @ List.map (Printf.sprintf "dim %d") shown in
  let rows =
    List.init n (fun r ->
        let c = C.device_of_rank m r in
        string_of_int r :: List.map (fun (a : F.axis_info) -> string_of_int (c a.id)) env.axes
        @ List.map (range c) shown)
  in
  List.iter line (pad_table (header :: rows));
  (* For one and two dimensions, also the array cut into blocks, each block
     labelled with the ranks that hold it. *)
  let blocks = List.map (fun d -> C.shards m d) ty in
  if rank <= 2 && sharded <> [] && List.fold_left ( * ) 1 blocks <= 64 then begin
    let block_of c = List.map (fun d -> C.offset m d c / C.extent m d) ty in
    let holders = Hashtbl.create 64 in
    for r = n - 1 downto 0 do
      let k = block_of (C.device_of_rank m r) in
      Hashtbl.replace holders k (r :: Option.value (Hashtbl.find_opt holders k) ~default:[])
    done;
    let cell k =
      let rs = Option.value (Hashtbl.find_opt holders k) ~default:[] in
      if List.length rs <= max_listed then String.concat "," (List.map string_of_int rs)
      else Printf.sprintf "%d,%d,..(%d ranks)" (List.nth rs 0) (List.nth rs 1) (List.length rs)
    in
    let span d i = let e = C.extent m (List.nth ty d) in Printf.sprintf "[%d, %d)" (i * e) ((i + 1) * e) in
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
let json env (ty : C.ty) =
  let m = F.core_mesh env in
  let device r =
    let c = C.device_of_rank m r in
    `Assoc
      [ ("rank", `Int r);
        ("coords", `List (List.map (fun (a : F.axis_info) -> `Int (c a.id)) env.F.axes));
        ("offset", `List (List.map (fun d -> `Int (C.offset m d c)) ty));
        ("extent", `List (List.map (fun d -> `Int (C.extent m d)) ty)) ]
  in
  let ints l = `List (List.map (fun n -> `Int n) l) in
  Json.document ~command:"show"
    [ ("mesh", Json.mesh env); ("type", `String (F.show_ty env ty));
      ("global_shape", ints (C.global_shape ty)); ("local_shape", ints (C.local_shape m ty));
      ("local_elems", `Int (C.local_size m ty));
      ("devices", `List (List.init (C.mesh_size m) device)) ]
