(* Random problems with pending sums in the command line's notation: the
   end-to-end suite's (tests/e2e/gen_sums.ml) and the differential test's
   (tests/diff/gen_diff.ml).

   [draw]: a mesh of at most 12 devices (1 to 3 axes of sizes 1 to 4), an
   array of rank 1 to 3 whose global extents are multiples of the device
   count (so every sharding is even), 1 to 3 pending-sum axes on the
   source, and a target that is sharded, replicated or itself pending (a
   third of each, roughly), in an integer dtype.  [draw_placed]: two placed
   meshes with uneven extents, for the reducing exchange ([placed_types]:
   its types, for meshes drawn elsewhere); [draw_uneven]: one mesh with
   uneven extents. *)

let axis_names = [| "x"; "y"; "z" |]
let int_dtypes = [| "i8"; "i16"; "i32"; "i64"; "u8"; "u16"; "u32"; "u64" |]

let pick st a = a.(Random.State.int st (Array.length a))

(* A random subset of [l], in order. *)
let subset st l = List.filter (fun _ -> Random.State.bool st) l

(* The dims as text: each axis of [assign] (axis, dim) shards its dim. *)
let type_text extents assign pending =
  let dim d n =
    match List.filter_map (fun (a, d') -> if d' = d then Some a else None) assign with
    | [] -> string_of_int n
    | axes -> Printf.sprintf "{%s}%d" (String.concat "," axes) n
  in
  "[" ^ String.concat ", " (List.mapi dim extents) ^ "]"
  ^ if pending = [] then "" else " sum{" ^ String.concat "," pending ^ "}"

let rec draw st =
  let naxes = 1 + Random.State.int st 3 in
  let sizes = List.init naxes (fun _ -> 1 + Random.State.int st 4) in
  let devices = List.fold_left ( * ) 1 sizes in
  let rank = 1 + Random.State.int st 3 in
  if devices > 12 || (rank = 3 && devices > 6) then draw st
  else begin
    let axes = List.init naxes (fun k -> axis_names.(k)) in
    let mesh = "{" ^ String.concat ", " (List.map2 (Printf.sprintf "%s:%d") axes sizes) ^ "}" in
    let extents = List.init rank (fun _ -> devices * (1 + Random.State.int st 2)) in
    (* As many pending axes as the mesh allows, evenly: 1 to naxes. *)
    let src_pending =
      let k = 1 + Random.State.int st naxes in
      let shuffled = List.map snd (List.sort compare (List.map (fun a -> (Random.State.bits st, a)) axes)) in
      List.filteri (fun i _ -> i < k) shuffled
    in
    let shard free = List.filter_map (fun a -> if Random.State.bool st then Some (a, Random.State.int st rank) else None) free in
    let src_assign = shard (List.filter (fun a -> not (List.mem a src_pending)) axes) in
    let tgt_assign, tgt_pending =
      match Random.State.int st 3 with
      | 0 -> (shard axes, [])                      (* sharded (or replicated, when nothing is drawn) *)
      | 1 -> ([], [])                              (* replicated *)
      | _ ->
          let assign = shard axes in
          let free = List.filter (fun a -> not (List.mem_assoc a assign)) axes in
          (assign, match subset st free with [] when free <> [] -> [ List.hd free ] | l -> l)  (* pending again *)
    in
    (mesh, devices, type_text extents src_assign src_pending, type_text extents tgt_assign tgt_pending, pick st int_dtypes)
  end

(* The types of a reducing exchange between meshes of the axes [src_axes]
   and [tgt_axes] (names): uneven extents (1 to 9), pending axes on the
   source and maybe the target; and an integer dtype. *)
let placed_types st src_axes tgt_axes =
  let rank = 1 + Random.State.int st 3 in
  let extents = List.init rank (fun _ -> 1 + Random.State.int st 9) in
  let shard axes = List.filter_map (fun a -> if Random.State.bool st then Some (a, Random.State.int st rank) else None) axes in
  let src_pending = match subset st src_axes with [] -> [ List.hd src_axes ] | l -> l in
  let src_assign = shard (List.filter (fun a -> not (List.mem a src_pending)) src_axes) in
  let tgt_assign = shard tgt_axes in
  let tgt_pending =
    if Random.State.int st 3 = 0 then subset st (List.filter (fun a -> not (List.mem_assoc a tgt_assign)) tgt_axes) else []
  in
  (type_text extents src_assign src_pending, type_text extents tgt_assign tgt_pending, pick st int_dtypes)

(* A problem for the reducing exchange: two placed meshes of at most 8
   world ranks (contiguous from an offset, or a permuted rank list), uneven
   extents (1 to 9), pending axes on the source and maybe the target. *)
let draw_placed st =
  let placed names =
    let naxes = 1 + Random.State.int st (Array.length names) in
    let sizes = List.init naxes (fun _ -> 1 + Random.State.int st 3) in
    let devices = List.fold_left ( * ) 1 sizes in
    let axes = List.init naxes (fun k -> names.(k)) in
    let text = "{" ^ String.concat ", " (List.map2 (Printf.sprintf "%s:%d") axes sizes) ^ "}" in
    if devices > 8 then None
    else if Random.State.bool st then Some (axes, Printf.sprintf "%s @ %d" text (Random.State.int st (9 - devices)))
    else begin
      let ranks = List.map snd (List.sort compare (List.init 8 (fun r -> (Random.State.bits st, r)))) in
      let ranks = List.filteri (fun i _ -> i < devices) ranks in
      Some (axes, Printf.sprintf "%s @ [%s]" text (String.concat ", " (List.map string_of_int ranks)))
    end
  in
  let rec go () =
    match (placed [| "x"; "y"; "z" |], placed [| "a"; "b" |]) with
    | Some (src_axes, from_mesh), Some (tgt_axes, to_mesh) ->
        let from, to_, dtype = placed_types st src_axes tgt_axes in
        (from_mesh, to_mesh, from, to_, dtype)
    | _ -> go ()
  in
  go ()


(* One mesh of at most 12 devices (1 to 3 axes of sizes 1 to 3) at world
   rank 0, uneven extents (1 to 9), 1 to 3 pending axes on the source, a
   target sharded or replicated, pending again a third of the time. *)
let rec draw_uneven st =
  let naxes = 1 + Random.State.int st 3 in
  let sizes = List.init naxes (fun _ -> 1 + Random.State.int st 3) in
  if List.fold_left ( * ) 1 sizes > 12 then draw_uneven st
  else begin
    let axes = List.init naxes (fun k -> axis_names.(k)) in
    let mesh = "{" ^ String.concat ", " (List.map2 (Printf.sprintf "%s:%d") axes sizes) ^ "}" in
    let rank = 1 + Random.State.int st 3 in
    let extents = List.init rank (fun _ -> 1 + Random.State.int st 9) in
    let shard free = List.filter_map (fun a -> if Random.State.bool st then Some (a, Random.State.int st rank) else None) free in
    let src_pending = match subset st axes with [] -> [ List.hd axes ] | l -> l in
    let src_assign = shard (List.filter (fun a -> not (List.mem a src_pending)) axes) in
    let tgt_assign = shard axes in
    let tgt_pending =
      if Random.State.int st 3 = 0 then subset st (List.filter (fun a -> not (List.mem_assoc a tgt_assign)) axes) else []
    in
    (mesh, type_text extents src_assign src_pending, type_text extents tgt_assign tgt_pending, pick st int_dtypes)
  end
