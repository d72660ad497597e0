(* The element types redist moves, each described once: its name in the
   syntax, its size, the C++ storage type a generated header uses, and what
   the runtime can compute with it.  Every other module asks this table;
   none keeps a list of names of its own. *)

type kind = Integer | Float | Complex | Float8 | Boolean

type t = {
  name : string;       (* as written in --dtype and in a type's prefix *)
  bytes : int;
  kind : kind;
  ctype : string;      (* the C++ storage type: types C++17 lacks are their bits *)
  runtime_code : int option;  (* its redist::Dtype (reduce.hpp) where the runtime adds it *)
  nccl_adds : bool;    (* NCCL has a sum for it (none for 16-bit integers) *)
}

let v name bytes kind ctype code = { name; bytes; kind; ctype; runtime_code = code; nccl_adds = code <> None }

(* The runtime adds integers (wrapping), floats and complex numbers; an
   8-bit float or a bool has no sum it could check. *)
let all =
  [ v "f32" 4 Float "float" (Some 10); v "f64" 8 Float "double" (Some 11);
    v "bf16" 2 Float "::std::uint16_t" (Some 9); v "f16" 2 Float "::std::uint16_t" (Some 8);
    v "f8e4m3" 1 Float8 "f8e4m3" None; v "f8e5m2" 1 Float8 "f8e5m2" None;
    v "i8" 1 Integer "::std::int8_t" (Some 0); { (v "i16" 2 Integer "::std::int16_t" (Some 1)) with nccl_adds = false };
    v "i32" 4 Integer "::std::int32_t" (Some 2); v "i64" 8 Integer "::std::int64_t" (Some 3);
    v "u8" 1 Integer "::std::uint8_t" (Some 4); { (v "u16" 2 Integer "::std::uint16_t" (Some 5)) with nccl_adds = false };
    v "u32" 4 Integer "::std::uint32_t" (Some 6); v "u64" 8 Integer "::std::uint64_t" (Some 7);
    v "bool" 1 Boolean "bool" None;
    v "c64" 8 Complex "::std::complex<float>" (Some 12); v "c128" 16 Complex "::std::complex<double>" (Some 13) ]

let default = List.find (fun d -> d.name = "f32") all
let names = String.concat ", " (List.map (fun d -> d.name) all)
let of_name name = List.find_opt (fun d -> d.name = name) all

let runtime_adds d = d.runtime_code <> None

(* Integer sums are exact whatever the order; float sums are compared
   bitwise against a replay in the plan's order. *)
let sums_exactly d = d.kind = Integer
let is_complex d = d.kind = Complex
let is_float8 d = d.kind = Float8

(* The operations of pending reductions (semantics.md Part 3): commutative
   monoids with identities 0, 1, the lowest and the highest value (integer
   sum and product wrap), and avg, the sum over the group divided once by
   the group size. *)
type op = Sum | Prod | Max | Min | Avg

let ops = [ (Sum, "sum"); (Prod, "prod"); (Max, "max"); (Min, "min"); (Avg, "avg") ]
let op_name op = List.assoc op ops
let op_of_name name = List.find_map (fun (op, n) -> if n = name then Some op else None) ops
let op_names = String.concat ", " (List.map snd ops)

(* add_pending's rule (the runtime's every_member_keeps): a new pending axis
   of max, min or avg leaves the value on every member, one of sum or prod
   on member 0 with the identity on the others. *)
let every_member_keeps = function Max | Min | Avg -> true | Sum | Prod -> false

(* The runtime's redist::Op (reduce.hpp). *)
let op_code = function Sum -> 0 | Prod -> 1 | Max -> 2 | Min -> 3 | Avg -> 4

(* What the runtime computes: every op on what it adds, except that
   complex numbers have no order (no max or min) and avg divides, so it
   is for floating types only. *)
let computes d op =
  runtime_adds d
  && match op with
     | Sum | Prod -> true
     | Max | Min -> d.kind <> Complex
     | Avg -> d.kind = Float || d.kind = Complex

let computing_names op = String.concat ", " (List.map (fun d -> d.name) (List.filter (fun d -> computes d op) all))

(* NCCL reduces part by part, which is the complex product's rule for none
   of its parts, and has no 16-bit integers. *)
let nccl_computes d op = d.nccl_adds && computes d op && not (op = Prod && d.kind = Complex)
