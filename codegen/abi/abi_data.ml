(* What the C ABI's C++ side (runtime/src/capi.cpp, its PlannerData) reads
   from the planner: self-describing values, so that C++ asks for each field
   by its name and a field this side does not give is an error naming it,
   never a number read from the wrong place of a record.  The constructors'
   order is PlannerData's Tag. *)
type t =
  | Int of int
  | Int64 of int64
  | Text of string
  | Items of t array
  | Record of string * (string * t) array  (* its kind (a variant's case, or the type's name), its fields *)

let ints a = Items (Array.map (fun i -> Int i) a)
let texts a = Items (Array.map (fun s -> Text s) a)
let items f a = Items (Array.map f a)

(* A box, or a cell: per dimension its offset and extent. *)
let box b = items (fun (offset, extent) -> Record ("interval", [| ("offset", Int offset); ("extent", Int extent) |])) b
