(* A redistribution problem read from the command line: mesh, source and
   target types, element type. *)

module C = Redist_core
module F = Front

type t = {
  env : F.env;       (* the user's mesh *)
  src : C.ty;
  tgt : C.ty;
  dtype : string;
  elem_bytes : int;
}

let parse ~what f s =
  try f s with Syntax.Parse_error (col, msg) -> F.bad "%s: column %d: %s" what col msg

let mesh text = F.env_of_mesh (parse ~what:"--mesh" Syntax.mesh text)

(* The dtype: from --dtype and the types' prefixes, which must agree;
   f32 when none is given. *)
let resolve_dtype ~flag prefixes =
  let given =
    (match flag with Some d -> [ ("--dtype", F.dtype_of ~what:"--dtype" d) ] | None -> [])
    @ List.filter_map
        (fun (what, (t : Syntax.ty)) -> Option.map (fun n -> (what, F.dtype_at ~what n)) t.dtype)
        prefixes
  in
  match given with
  | [] -> "f32"
  | (w0, d0) :: rest ->
      List.iter (fun (w, d) -> if d <> d0 then F.bad "%s says %s but %s says %s" w0 d0 w d) rest;
      d0

let make ~mesh:mesh_text ~from ~to_ ~dtype =
  let env = mesh mesh_text in
  let from_ast = parse ~what:"--from" Syntax.ty from in
  let to_ast = parse ~what:"--to" Syntax.ty to_ in
  let src = F.ty_of_ast ~what:"--from" env from_ast in
  let tgt = F.ty_of_ast ~what:"--to" env to_ast in
  if List.length src <> List.length tgt then
    F.bad "--from has %d dimensions but --to has %d" (List.length src) (List.length tgt);
  let gs = C.global_shape src and gt = C.global_shape tgt in
  if gs <> gt then
    F.bad "global shapes differ: --from is %s, --to is %s" (F.show_shape gs) (F.show_shape gt);
  let dtype = resolve_dtype ~flag:dtype [ ("--from", from_ast); ("--to", to_ast) ] in
  { env; src; tgt; dtype; elem_bytes = List.assoc dtype F.dtypes }
