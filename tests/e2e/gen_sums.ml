(* Random end-to-end problems with pending sums for tests/e2e/sums.sh.

     gen_sums.exe SEED COUNT PER_TU OUTDIR

   Draws COUNT problems from SEED: meshes of at most 12 devices (1 to 3
   axes of sizes 1 to 4), arrays of rank 1 to 3 whose global extents are
   multiples of the device count (so every sharding is even), 1 to 3
   pending-sum axes on the source, and a target that is sharded, replicated
   or itself pending (a third of each, roughly), in an integer dtype; and
   two in five between two placed meshes with uneven extents (draw_placed).
   Each is planned by the extracted plan_sums (--strategy auto: the
   collectives or the reducing exchange) and emitted by `redist gen`'s
   emitter (Emit_sums, namespace pN).  Writes
   OUTDIR/tuK.cpp (PER_TU headers each, and the table of their entry
   points), OUTDIR/tables.hpp for the driver tests/e2e/sums_main.cpp, and
   OUTDIR/sizes.txt, one line "DEVICES COUNT" per mesh size. *)

open Redist_cli

let axis_names = [| "x"; "y"; "z" |]
let dtypes = [| "i8"; "i16"; "i32"; "i64"; "u8"; "u16"; "u32"; "u64" |]

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
    (mesh, devices, type_text extents src_assign src_pending, type_text extents tgt_assign tgt_pending, pick st dtypes)
  end

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
        let rank = 1 + Random.State.int st 3 in
        let extents = List.init rank (fun _ -> 1 + Random.State.int st 9) in
        let shard axes = List.filter_map (fun a -> if Random.State.bool st then Some (a, Random.State.int st rank) else None) axes in
        let src_pending = match subset st src_axes with [] -> [ List.hd src_axes ] | l -> l in
        let src_assign = shard (List.filter (fun a -> not (List.mem a src_pending)) src_axes) in
        let tgt_assign = shard tgt_axes in
        let tgt_pending =
          if Random.State.int st 3 = 0 then subset st (List.filter (fun a -> not (List.mem_assoc a tgt_assign)) tgt_axes) else []
        in
        (from_mesh, to_mesh, type_text extents src_assign src_pending, type_text extents tgt_assign tgt_pending, pick st dtypes)
    | _ -> go ()
  in
  go ()

let write file text =
  let oc = open_out_bin file in
  output_string oc text;
  close_out oc

let () =
  if Array.length Sys.argv <> 5 then (prerr_endline "usage: gen_sums SEED COUNT PER_TU OUTDIR"; exit 2);
  let seed = int_of_string Sys.argv.(1) and count = int_of_string Sys.argv.(2) in
  let per_tu = int_of_string Sys.argv.(3) and dir = Sys.argv.(4) in
  Printf.printf "e2e-sums: seed %d, %d problems, %d per translation unit\n%!" seed count per_tu;
  let st = Random.State.make [| seed |] in
  let sizes = Hashtbl.create 16 in
  let tus = (count + per_tu - 1) / per_tu in
  let tables = Buffer.create 1024 in
  Buffer.add_string tables "// Generated by tests/e2e/gen_sums.ml.\n#pragma once\n#include \"sums.hpp\"\n";
  let table_names = ref [] in
  for tu = 0 to tus - 1 do
    let b = Buffer.create 65536 in
    let add fmt = Printf.ksprintf (fun s -> Buffer.add_string b s; Buffer.add_char b '\n') fmt in
    add "// Generated by tests/e2e/gen_sums.ml (seed %d)." seed;
    add "#include \"sums.hpp\"";
    let entries = ref [] in
    for i = tu * per_tu to min count ((tu + 1) * per_tu) - 1 do
      let name = Printf.sprintf "p%d" i in
      (* Two in five by the reducing exchange (uneven, two meshes). *)
      let meshes, text, src, tgt, dtype =
        if Random.State.int st 5 < 2 then
          let from_mesh, to_mesh, src, tgt, dtype = draw_placed st in
          (Problem.Two (from_mesh, to_mesh), from_mesh ^ " -> " ^ to_mesh, src, tgt, dtype)
        else
          let mesh, _, src, tgt, dtype = draw st in
          (Problem.One mesh, mesh, src, tgt, dtype)
      in
      let p = Problem.make_placed ~meshes ~strategy:Redist_core.StratAuto ~from:src ~to_:tgt ~dtype:(Some dtype) in
      let r = Sumplan.choose p in
      write (Filename.concat dir (name ^ ".hpp")) (Emit_sums.render ~command:[ "redist" ] ~name r);
      let world = Problem.world p in
      Hashtbl.replace sizes world (1 + Option.value (Hashtbl.find_opt sizes world) ~default:0);
      add "#include \"%s.hpp\"" name;
      let kind = match r.plan with Redist_core.SumByExchange -> "EXCHANGE" | _ -> "COLLECTIVES" in
      entries := Printf.sprintf "  SUMS_%s(%s, \"%s %s -> %s %s\", %d)," kind name text src tgt dtype r.peak :: !entries
    done;
    add "extern const sums_entry kSums%d[] = {" tu;
    List.iter (add "%s") (List.rev !entries);
    add "};";
    add "extern const int kSums%dCount = %d;" tu (List.length !entries);
    write (Filename.concat dir (Printf.sprintf "tu%d.cpp" tu)) (Buffer.contents b);
    Buffer.add_string tables (Printf.sprintf "extern const sums_entry kSums%d[];\nextern const int kSums%dCount;\n" tu tu);
    table_names := Printf.sprintf "{kSums%d, kSums%dCount}" tu tu :: !table_names
  done;
  Buffer.add_string tables
    (Printf.sprintf "inline const sums_table kTables[] = {%s};\n" (String.concat ", " (List.rev !table_names)));
  write (Filename.concat dir "tables.hpp") (Buffer.contents tables);
  write (Filename.concat dir "sizes.txt")
    (String.concat "" (List.map (fun (d, n) -> Printf.sprintf "%d %d\n" d n)
                         (List.sort compare (Hashtbl.fold (fun d n acc -> (d, n) :: acc) sizes []))))
