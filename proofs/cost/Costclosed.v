(** * The exchange's cost in closed form: what it equals.

    - [exchange_rank_ns_exact]: on one host, a rank's predicted time in the
      exchange ([Cost.exchange_rank_ns], runs of equal pieces per
      dimension) is [rank_ns] of its messages listed one per cell
      ([Cost.exchange_batches] over [Exchange.recv_messages]).
    - [exchange_rank_ns_bound]: across hosts it is at least that (each
      message a rank does not hold is charged the slower link, whichever
      replica [spread_holder] picks to send it).
    - [exchange_predicted_exact], [exchange_predicted_bound]: the same for
      the exchange's predicted time, its slowest rank's. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Checker Radix Layout Layoutproof Exchange Exchangeproof Strategy Strategyproof
  Lower Cost.

(** ** Runs are the pieces of [cuts] *)

Lemma cuts_fuel : forall f1 f2 lo hi bs bt, 1 <= bs -> 1 <= bt -> hi - lo <= f1 -> hi - lo <= f2 ->
  cuts f1 lo hi bs bt = cuts f2 lo hi bs bt.
Proof.
  induction f1 as [|f1 IH]; intros f2 lo hi bs bt Hs Ht H1 H2.
  - destruct f2; simpl; [reflexivity |]. destruct (Nat.ltb_spec lo hi); [lia | reflexivity].
  - destruct f2 as [|f2]; simpl.
    + destruct (Nat.ltb_spec lo hi); [lia | reflexivity].
    + destruct (Nat.ltb_spec lo hi) as [Hlh|]; [| reflexivity]. f_equal.
      pose proof (next_gt lo bs Hs). pose proof (next_gt lo bt Ht). apply IH; lia.
Qed.

Lemma mod0_next : forall lo b, 1 <= b -> lo mod b = 0 -> S (lo / b) * b = lo + b.
Proof. intros lo b Hb H. pose proof (Nat.div_mod lo b ltac:(lia)). rewrite H in *. nia. Qed.

(** From a multiple of [bs], [k] whole source blocks before the next target boundary. *)
Lemma cuts_whole : forall k f lo hi bs bt, 1 <= bs -> 1 <= bt -> lo mod bs = 0 ->
  lo + k * bs <= Nat.min hi (S (lo / bt) * bt) -> hi - lo <= f ->
  map snd (cuts f lo hi bs bt) = repeat bs k ++ map snd (cuts (f - k) (lo + k * bs) hi bs bt).
Proof.
  induction k as [|k IH]; intros f lo hi bs bt Hs Ht Hm Hk Hf.
  - simpl. rewrite Nat.sub_0_r, Nat.add_0_r. reflexivity.
  - destruct f as [|f]; [lia |]. cbn [cuts].
    destruct (Nat.ltb_spec lo hi) as [Hlh|]; [| lia].
    rewrite (mod0_next lo bs Hs Hm).
    replace (Nat.min hi (Nat.min (lo + bs) (S (lo / bt) * bt))) with (lo + bs) by lia.
    replace (lo + bs - lo) with bs by lia. cbn [map repeat app snd]. f_equal.
    assert (Hm' : (lo + bs) mod bs = 0).
    { replace (lo + bs) with (lo + 1 * bs) by lia. rewrite Nat.mod_add by lia. exact Hm. }
    assert (Hmono : S (lo / bt) * bt <= S ((lo + bs) / bt) * bt).
    { apply Nat.mul_le_mono_r. apply le_n_S. apply Nat.div_le_mono; lia. }
    rewrite (IH f (lo + bs) hi bs bt Hs Ht Hm' ltac:(lia) ltac:(lia)).
    replace (lo + bs + k * bs) with (lo + S k * bs) by lia. reflexivity.
Qed.

Definition expand (rs : list (nat * nat)) : list nat := flat_map (fun '(len, k) => repeat len k) rs.

Lemma cut_runs_cuts : forall f f' lo hi bs bt, 1 <= bs -> 1 <= bt -> hi - lo <= f -> hi - lo <= f' ->
  expand (cut_runs f lo hi bs bt) = map snd (cuts f' lo hi bs bt).
Proof.
  induction f as [|f IH]; intros f' lo hi bs bt Hs Ht Hf Hf'.
  - simpl. destruct f'; simpl; [reflexivity |]. destruct (Nat.ltb_spec lo hi); [lia | reflexivity].
  - cbn [cut_runs]. destruct (Nat.ltb_spec lo hi) as [Hlh|].
    2: { destruct f'; simpl; [reflexivity |]. destruct (Nat.ltb_spec lo hi); [lia | reflexivity]. }
    set (whole := (Nat.min hi (S (lo / bt) * bt) - lo) / bs).
    pose proof (next_gt lo bs Hs). pose proof (next_gt lo bt Ht).
    destruct ((lo mod bs =? 0) && (1 <=? whole)) eqn:E.
    + apply andb_true_iff in E as [Hm Hw]. apply Nat.eqb_eq in Hm. apply Nat.leb_le in Hw.
      assert (Hwb : whole * bs <= Nat.min hi (S (lo / bt) * bt) - lo).
      { unfold whole. rewrite Nat.mul_comm. apply Nat.mul_div_le. lia. }
      rewrite (cuts_whole whole f' lo hi bs bt Hs Ht Hm ltac:(lia) Hf').
      unfold expand. cbn [flat_map]. fold (expand (cut_runs f (lo + whole * bs) hi bs bt)).
      f_equal. apply IH; nia.
    + destruct f' as [|f']; [lia |]. cbn [cuts]. destruct (Nat.ltb_spec lo hi); [| lia].
      unfold expand. cbn [flat_map map repeat app snd]. f_equal.
      fold (expand (cut_runs f (Nat.min hi (Nat.min (S (lo / bs) * bs) (S (lo / bt) * bt))) hi bs bt)).
      apply IH; lia.
Qed.

(** [cuts] splits at any of its boundaries. *)
Lemma next_le_mult : forall lo a b, 1 <= b -> lo < a -> a mod b = 0 -> S (lo / b) * b <= a.
Proof.
  intros lo a b Hb Hla Ha. pose proof (Nat.div_mod a b ltac:(lia)). pose proof (Nat.div_mod lo b ltac:(lia)).
  pose proof (Nat.mod_upper_bound lo b ltac:(lia)). rewrite Ha in *.
  assert (lo / b < a / b) by nia. nia.
Qed.

Lemma cuts_split : forall f lo a hi bs bt, 1 <= bs -> 1 <= bt -> lo <= a <= hi -> cut_at lo hi bs a = true ->
  hi - lo <= f -> cuts f lo hi bs bt = cuts f lo a bs bt ++ cuts f a hi bs bt.
Proof.
  induction f as [|f IH]; intros lo a hi bs bt Hs Ht Ha Hc Hf.
  - simpl. reflexivity.
  - destruct (Nat.eq_dec a lo) as [->|Hne].
    + replace (cuts (S f) lo lo bs bt) with (@nil (nat * nat)) by (simpl; rewrite Nat.ltb_irrefl; reflexivity).
      reflexivity.
    + destruct (Nat.eq_dec a hi) as [->|Hne'].
      * replace (cuts (S f) hi hi bs bt) with (@nil (nat * nat)) by (simpl; rewrite Nat.ltb_irrefl; reflexivity).
        rewrite app_nil_r. reflexivity.
      * unfold cut_at in Hc. apply orb_true_iff in Hc as [Hc | Hc]; [apply orb_true_iff in Hc as [Hc | Hc] |].
        -- apply Nat.leb_le in Hc. lia.
        -- apply Nat.leb_le in Hc. lia.
        -- apply Nat.eqb_eq in Hc.
           rewrite (cuts_fuel (S f) f a hi bs bt Hs Ht ltac:(lia) ltac:(lia)). cbn [cuts].
           destruct (Nat.ltb_spec lo hi); [| lia]. destruct (Nat.ltb_spec lo a); [| lia].
           pose proof (next_le_mult lo a bs Hs ltac:(lia) Hc). pose proof (next_gt lo bs Hs).
           pose proof (next_gt lo bt Ht).
           replace (Nat.min a (Nat.min (S (lo / bs) * bs) (S (lo / bt) * bt)))
             with (Nat.min hi (Nat.min (S (lo / bs) * bs) (S (lo / bt) * bt))) by lia.
           cbn [app]. f_equal.
           set (next := Nat.min hi (Nat.min (S (lo / bs) * bs) (S (lo / bt) * bt))).
           rewrite (IH next a hi bs bt Hs Ht ltac:(unfold next; lia)).
           ++ reflexivity.
           ++ unfold cut_at. rewrite Hc. rewrite !orb_true_r. reflexivity.
           ++ unfold next. lia.
Qed.

(** ** A dimension's runs, marked inside the source block or not *)

(** A piece's length and whether it starts in the source block [sv]. *)
Definition mark_piece (sv : nat * nat) (piece : nat * nat) : nat * bool :=
  (snd piece, starts_in (fst sv) (snd sv) (fst piece)).

Definition expand_marked (rs : list run) : list (nat * bool) := flat_map (fun '(len, i, k) => repeat (len, i) k) rs.

Lemma expand_marked_app : forall l1 l2, expand_marked (l1 ++ l2) = expand_marked l1 ++ expand_marked l2.
Proof. intros. unfold expand_marked. apply flat_map_app. Qed.

Lemma map_repeat' : forall A B (f : A -> B) x k, map f (repeat x k) = repeat (f x) k.
Proof. intros A B f x k. induction k as [|k IH]; simpl; [reflexivity | rewrite IH; reflexivity]. Qed.

Lemma expand_marked_mark : forall i rs, expand_marked (mark_runs i rs) = map (fun len => (len, i)) (expand rs).
Proof.
  intros i rs. induction rs as [|[len k] rs IH]; simpl; [reflexivity |].
  rewrite map_app, IH, map_repeat'. reflexivity.
Qed.

Lemma mark_all : forall sv i (l : list (nat * nat)),
  (forall x len, In (x, len) l -> starts_in (fst sv) (snd sv) x = i) ->
  map (mark_piece sv) l = map (fun len => (len, i)) (map snd l).
Proof.
  intros sv i l. induction l as [|[x len] l IH]; intros H; simpl; [reflexivity |].
  unfold mark_piece at 1. simpl. rewrite (H x len (or_introl eq_refl)). f_equal.
  apply IH. intros x' len' Hin. apply (H x' len'). right. exact Hin.
Qed.

Lemma cuts_starts : forall f lo hi bs bt x len, 1 <= bs -> 1 <= bt -> In (x, len) (cuts f lo hi bs bt) ->
  lo <= x < hi.
Proof. intros f lo hi bs bt x len Hs Ht Hin. destruct (cuts_props f lo hi bs bt Hs Ht x len Hin). lia. Qed.

Lemma dim_runs_pieces : forall lo n slo sn bs bt, 1 <= bs -> 1 <= bt ->
  expand_marked (dim_runs (lo, n) (slo, sn) bs bt) = map (mark_piece (slo, sn)) (cuts n lo (lo + n) bs bt).
Proof.
  intros lo n slo sn bs bt Hs Ht. unfold dim_runs.
  set (hi := lo + n). set (a := clamp lo hi slo). set (b := clamp lo hi (slo + sn)).
  assert (Hab : lo <= a <= b /\ b <= hi) by (unfold a, b, clamp, hi; lia).
  destruct (cut_at lo hi bs a && cut_at lo hi bs b) eqn:E.
  - apply andb_true_iff in E as [Ea Eb].
    assert (Eb' : cut_at a hi bs b = true).
    { unfold cut_at in *. destruct (Nat.leb_spec b lo); [apply orb_true_iff; left; apply orb_true_iff; left;
        apply Nat.leb_le; lia |]. rewrite orb_false_l in Eb.
      apply orb_true_iff in Eb as [Eb | Eb]; apply orb_true_iff; [left; apply orb_true_iff; right |
        right]; exact Eb. }
    rewrite (cuts_split n lo a hi bs bt Hs Ht ltac:(lia) Ea ltac:(unfold hi; lia)).
    rewrite (cuts_split n a b hi bs bt Hs Ht ltac:(lia) Eb' ltac:(unfold hi; lia)).
    rewrite !expand_marked_app, !expand_marked_mark, !map_app.
    rewrite (cut_runs_cuts (a - lo) n lo a bs bt Hs Ht ltac:(lia) ltac:(unfold hi in *; lia)).
    rewrite (cut_runs_cuts (b - a) n a b bs bt Hs Ht ltac:(lia) ltac:(unfold hi in *; lia)).
    rewrite (cut_runs_cuts (hi - b) n b hi bs bt Hs Ht ltac:(lia) ltac:(unfold hi in *; lia)).
    rewrite (mark_all (slo, sn) false (cuts n lo a bs bt)), (mark_all (slo, sn) true (cuts n a b bs bt)),
      (mark_all (slo, sn) false (cuts n b hi bs bt)); [reflexivity | ..];
      intros x len Hin; apply cuts_starts in Hin; try lia; simpl; unfold starts_in;
      destruct (Nat.leb_spec slo x); destruct (Nat.ltb_spec x (slo + sn)); simpl; try reflexivity;
      exfalso; unfold a, b, clamp in *; lia.
  - induction (cuts n lo hi bs bt) as [|piece l IH]; [reflexivity |].
    unfold expand_marked in *. simpl. rewrite IH. reflexivity.
Qed.

(** ** Sums over cells are sums over runs *)

Fixpoint runs_match (R : list (list run)) (ivss : list (list (nat * nat))) (sb : box) : Prop :=
  match R, ivss, sb with
  | [], [], [] => True
  | rs :: R', ivs :: ivss', sv :: sb' => expand_marked rs = map (mark_piece sv) ivs /\ runs_match R' ivss' sb'
  | _, _, _ => False
  end.

Lemma dims_runs_match : forall tb sb bss bts,
  length sb = length tb -> length bss = length tb -> length bts = length tb ->
  runs_match (dims_runs tb sb bss bts) (dims_cuts tb bss bts) sb.
Proof.
  induction tb as [|[lo n] tb IH]; intros [|[slo sn] sb] [|bs bss] [|bt bts] Hs Hb Ht; cbn [length] in *;
    try discriminate; [exact I |]. cbn [dims_runs dims_cuts runs_match].
  split; [apply dim_runs_pieces; lia | apply IH; lia].
Qed.

Lemma list_sum_repeat : forall x k, list_sum (repeat x k) = k * x.
Proof. intros x k. induction k as [|k IH]; simpl; lia. Qed.

Lemma sum_expand_marked : forall (F : nat * bool -> nat) rs,
  list_sum (map F (expand_marked rs)) = list_sum (map (fun '(len, i, k) => k * F (len, i)) rs).
Proof.
  intros F rs. induction rs as [|[[len i] k] rs IH]; [reflexivity |].
  unfold expand_marked in *. cbn [flat_map]. rewrite map_app, list_sum_app, IH, map_repeat', list_sum_repeat.
  reflexivity.
Qed.

Lemma sum_flat_map : forall A B (g : B -> nat) (f : A -> list B) l,
  list_sum (map g (flat_map f l)) = list_sum (map (fun x => list_sum (map g (f x))) l).
Proof. intros A B g f l. induction l as [|x l IH]; simpl; [reflexivity |]. rewrite map_app, list_sum_app, IH. reflexivity. Qed.

Lemma runs_sum_cells : forall R ivss sb h inside size, runs_match R ivss sb ->
  list_sum (map (fun c => h (inside && box_has sb (map fst c)) (size * prod (map snd c))) (cell_boxes ivss))
  = runs_sum h inside size R.
Proof.
  induction R as [|rs R IH]; intros [|ivs ivss] [|[slo sn] sb] h inside size HR; simpl in HR; try contradiction.
  - simpl. rewrite andb_true_r, Nat.mul_1_r, Nat.add_0_r. reflexivity.
  - destruct HR as [Hrs HR]. cbn [cell_boxes runs_sum]. rewrite sum_flat_map.
    set (F := fun (p : nat * bool) => runs_sum h (inside && snd p) (size * fst p) R).
    transitivity (list_sum (map F (map (mark_piece (slo, sn)) ivs))).
    + rewrite map_map. f_equal. apply map_ext. intros [x len]. rewrite map_map. unfold F, mark_piece. simpl.
      rewrite <- (IH ivss sb h (inside && starts_in slo sn x) (size * len) HR). f_equal. apply map_ext. intros c.
      unfold starts_in. rewrite !andb_assoc, Nat.mul_assoc. reflexivity.
    + rewrite <- Hrs, sum_expand_marked. reflexivity.
Qed.

(** ** A rank's time *)

Lemma pl_box_length : forall L w b, pl_box L w = Some b -> length b = length (ly_ty L).
Proof.
  intros L w b H. unfold pl_box in H. destruct (index_of w (pm_ranks (ly_mesh L))); [| discriminate].
  inversion H. unfold dev_box. apply map_length.
Qed.

Lemma wf_rank_eq : forall S T, layouts_wf S T = true -> length (ly_ty S) = length (ly_ty T).
Proof.
  intros S T H. unfold layouts_wf in H. apply andb_true_iff in H as [_ H]. apply list_eqb_eq in H.
  unfold global_shape in H. apply (f_equal (@length nat)) in H. rewrite !map_length in H. exact H.
Qed.

(** The corner of every cell is in the target box. *)
Lemma cell_corner_in : forall tb bss bts c, length bss = length tb -> length bts = length tb ->
  In c (cell_boxes (dims_cuts tb bss bts)) -> box_has tb (map fst c) = true.
Proof.
  induction tb as [|[lo n] tb IH]; intros [|bs bss] [|bt bts] c Hb Ht Hc; cbn [length dims_cuts cell_boxes] in *;
    try discriminate.
  - destruct Hc as [<- | []]. reflexivity.
  - apply in_flat_map in Hc as [[x len] [Hx Hc]]. apply in_map_iff in Hc as [c' [<- Hc']]. cbn [map fst box_has].
    apply cuts_starts in Hx; [| lia | lia]. rewrite (IH bss bts c' ltac:(lia) ltac:(lia) Hc').
    rewrite andb_true_r. apply andb_true_iff. split; [apply Nat.leb_le | apply Nat.ltb_lt]; lia.
Qed.

Lemma list_sum_le : forall A (f g : A -> nat) l, (forall x, In x l -> f x <= g x) ->
  list_sum (map f l) <= list_sum (map g l).
Proof.
  intros A f g l. induction l as [|x l IH]; intros H; simpl; [lia |].
  pose proof (H x (or_introl eq_refl)). pose proof (IH (fun y Hy => H y (or_intror Hy))). lia.
Qed.

Lemma runs_sum_rank : forall pf spanned elem S T r tb (g : list (nat * nat) -> nat), layouts_wf S T = true ->
  pl_box T r = Some tb ->
  (forall c, g c = exchange_cell_ns pf spanned elem (has_opt (pl_box S r) (map fst c)) (box_size c)) ->
  exchange_rank_ns pf spanned (rank_table_of (pm_ranks (ly_mesh S))) (rank_table_of (pm_ranks (ly_mesh T)))
    elem S T r
  = list_sum (map g (cell_boxes (dims_cuts tb (map (block_size (ly_m S)) (ly_ty S))
                                             (map (block_size (ly_m T)) (ly_ty T))))).
Proof.
  intros pf spanned elem S T r tb g Hwf Htb Hg. unfold exchange_rank_ns. rewrite !box_in_spec, Htb.
  pose proof (pl_box_length T r tb Htb) as Hlt. pose proof (wf_rank_eq S T Hwf) as Hst.
  set (bss := map (block_size (ly_m S)) (ly_ty S)). set (bts := map (block_size (ly_m T)) (ly_ty T)).
  assert (Hlens : length bss = length tb /\ length bts = length tb)
    by (unfold bss, bts; rewrite !map_length; lia).
  destruct (pl_box S r) as [sb|] eqn:Hsb.
  - pose proof (pl_box_length S r sb Hsb) as Hls.
    change (runs_sum (exchange_cell_ns pf spanned elem) true 1 (dims_runs tb sb bss bts)
            = list_sum (map g (cell_boxes (dims_cuts tb bss bts)))).
    rewrite <- (runs_sum_cells (dims_runs tb sb bss bts) (dims_cuts tb bss bts) sb) by (apply dims_runs_match; lia).
    f_equal. apply map_ext. intros c. rewrite Hg, Nat.mul_1_l. reflexivity.
  - set (sb := map (fun _ : nat * nat => (0, 0)) tb).
    change (runs_sum (exchange_cell_ns pf spanned elem) false 1 (dims_runs tb sb bss bts)
            = list_sum (map g (cell_boxes (dims_cuts tb bss bts)))).
    rewrite <- (runs_sum_cells (dims_runs tb sb bss bts) (dims_cuts tb bss bts) sb)
      by (apply dims_runs_match; unfold sb; rewrite ?map_length; lia).
    f_equal. apply map_ext. intros c. rewrite Hg, Nat.mul_1_l. reflexivity.
Qed.

(** On one host, a rank's time in closed form is its messages' time. *)
Theorem exchange_rank_ns_exact : forall pf h elem S T r, layouts_wf S T = true ->
  let tS := rank_table_of (pm_ranks (ly_mesh S)) in
  let tT := rank_table_of (pm_ranks (ly_mesh T)) in
  exchange_rank_ns pf false tS tT elem S T r = rank_ns pf (exchange_batches h false tS tT elem (lower_exchange S T) r).
Proof.
  intros pf h elem S T r Hwf tS tT. unfold exchange_batches. cbn [xc_from xc_to lower_exchange].
  subst tS tT. rewrite !box_in_spec.
  destruct (pl_box T r) as [tb|] eqn:Htb; [| unfold exchange_rank_ns; rewrite box_in_spec, Htb; reflexivity].
  unfold rank_ns. rewrite map_map.
  apply (runs_sum_rank pf false elem S T r tb _ Hwf Htb). intros c.
  unfold exchange_cell_ns. destruct (has_opt (pl_box S r) (map fst c)); reflexivity.
Qed.

(** Across hosts, it is at least their time. *)
Theorem exchange_rank_ns_bound : forall pf h elem S T r, layouts_wf S T = true ->
  let tS := rank_table_of (pm_ranks (ly_mesh S)) in
  let tT := rank_table_of (pm_ranks (ly_mesh T)) in
  rank_ns pf (exchange_batches h true tS tT elem (lower_exchange S T) r) <= exchange_rank_ns pf true tS tT elem S T r.
Proof.
  intros pf h elem S T r Hwf tS tT. unfold exchange_batches. cbn [xc_from xc_to lower_exchange xc_recv].
  subst tS tT. unfold recv_messages, recv_cells.
  destruct (pl_box T r) as [tb|] eqn:Htb; [| unfold exchange_rank_ns; rewrite !box_in_spec, Htb; unfold rank_ns; simpl; lia].
  rewrite (runs_sum_rank pf true elem S T r tb _ Hwf Htb (fun c => eq_refl)).
  unfold rank_ns. rewrite !map_map. apply list_sum_le. intros c Hc.
  pose proof (pl_box_length T r tb Htb) as Hlt. pose proof (wf_rank_eq S T Hwf) as Hst.
  assert (Hcorner : box_has tb (map fst c) = true)
    by (apply (cell_corner_in tb (map (block_size (ly_m S)) (ly_ty S)) (map (block_size (ly_m T)) (ly_ty T)) c);
        rewrite ?map_length; [lia | lia | exact Hc]).
  fold (spread_holder S T). unfold exchange_cell_ns.
  destruct (has_opt (pl_box S r) (map fst c)) eqn:Hheld.
  - unfold spread_holder, spread_in. rewrite Hheld. unfold route_between. rewrite Nat.eqb_refl. lia.
  - pose proof (proj1 (spread_holder_ok S T Hwf) r tb (map fst c) Htb Hcorner) as Hholds.
    unfold route_between. destruct (Nat.eqb_spec (spread_holder S T r (map fst c)) r) as [Eq|_].
    + rewrite Eq, Hheld in Hholds. discriminate.
    + destruct (host_of h (spread_holder S T r (map fst c)) =? host_of h r); lia.
Qed.

Lemma max_over_mono : forall (f g : nat -> nat) l, (forall r, In r l -> f r <= g r) -> max_over l f <= max_over l g.
Proof.
  intros f g l H. unfold max_over.
  assert (Hgen : forall a b, a <= b -> fold_left (fun acc r => Nat.max acc (f r)) l a
                                      <= fold_left (fun acc r => Nat.max acc (g r)) l b).
  { induction l as [|x l IH]; intros a b Hab; simpl; [exact Hab |].
    apply IH; [intros r Hr; apply H; right; exact Hr |]. pose proof (H x (or_introl eq_refl)). lia. }
  apply Hgen. lia.
Qed.

(** The exchange's predicted time is its slowest rank's time, its messages
    enumerated: exactly on one host, ... *)
Theorem exchange_predicted_exact : forall pf h elem S T, layouts_wf S T = true ->
  spans_hosts h (pm_ranks (ly_mesh S) ++ pm_ranks (ly_mesh T)) = false ->
  let tS := rank_table_of (pm_ranks (ly_mesh S)) in
  let tT := rank_table_of (pm_ranks (ly_mesh T)) in
  predicted_ns pf h elem S T ByExchange
  = max_over (pm_ranks (ly_mesh T)) (fun r => rank_ns (single_copy_profile pf) (exchange_batches h false tS tT elem (lower_exchange S T) r)).
Proof.
  intros pf h elem S T Hwf Hsp tS tT. subst tS tT. unfold predicted_ns, program_steps_ns, lower_splan. cbn [xc_from xc_to lower_exchange].
  rewrite Hsp. cbn [map list_sum fold_right]. rewrite Nat.add_0_r.
  apply Nat.le_antisymm; apply max_over_mono; intros r _; rewrite (exchange_rank_ns_exact (single_copy_profile pf) h elem S T r Hwf);
    lia.
Qed.

(** ... and at least that across hosts. *)
Theorem exchange_predicted_bound : forall pf h elem S T, layouts_wf S T = true ->
  let tS := rank_table_of (pm_ranks (ly_mesh S)) in
  let tT := rank_table_of (pm_ranks (ly_mesh T)) in
  let spanned := spans_hosts h (pm_ranks (ly_mesh S) ++ pm_ranks (ly_mesh T)) in
  max_over (pm_ranks (ly_mesh T)) (fun r => rank_ns (single_copy_profile pf) (exchange_batches h spanned tS tT elem (lower_exchange S T) r))
  <= predicted_ns pf h elem S T ByExchange.
Proof.
  intros pf h elem S T Hwf tS tT spanned. subst tS tT. unfold predicted_ns, program_steps_ns, lower_splan.
  cbn [xc_from xc_to lower_exchange]. fold spanned. cbn [map list_sum fold_right]. rewrite Nat.add_0_r.
  apply max_over_mono. intros r _. destruct spanned.
  - apply (exchange_rank_ns_bound (single_copy_profile pf) h elem S T r Hwf).
  - rewrite (exchange_rank_ns_exact (single_copy_profile pf) h elem S T r Hwf). lia.
Qed.

(** ** Single copy is no slower

    Where the single-copy link is no slower than the same-host link (no
    more latency, at least the bandwidth), no step of any plan costs more
    with the profile's single copy than without it
    ([single_copy_no_slower]); without single copy the prices are the MPI
    prices ([Costproof.single_copy_absent]). *)

Definition faster_link (a b : link) : Prop :=
  lk_latency_ns a <= lk_latency_ns b /\ 0 < lk_bytes_per_us b /\ lk_bytes_per_us b <= lk_bytes_per_us a.

Definition single_copy_faster (pf : profile) : Prop :=
  match pf_single_copy pf with Some l => faster_link l (pf_same_host pf) | None => True end.

Lemma transfer_ns_exact : forall b n, 0 < b -> transfer_ns b n = n * 1000 / b.
Proof.
  intros b n Hb. unfold transfer_ns.
  rewrite (Nat.div_mod_eq n b) at 3.
  replace ((b * (n / b) + n mod b) * 1000) with (n mod b * 1000 + (n / b * 1000) * b) by lia.
  rewrite Nat.div_add by lia. lia.
Qed.

Lemma transfer_ns_anti : forall a b n, 0 < b -> b <= a -> transfer_ns a n <= transfer_ns b n.
Proof.
  intros a b n Hb Hab. rewrite !transfer_ns_exact by lia. apply Nat.div_le_compat_l. lia.
Qed.

Lemma batch_ns_without : forall pf b, batch_ns (without_single_copy pf) b = batch_ns pf b.
Proof. intros pf [[rt n] bytes]. destruct rt; reflexivity. Qed.

Lemma rank_ns_without : forall pf bs, rank_ns (without_single_copy pf) bs = rank_ns pf bs.
Proof. intros pf bs. unfold rank_ns. rewrite (map_ext _ _ (batch_ns_without pf)). reflexivity. Qed.

Lemma batch_ns_single_copy : forall pf b, single_copy_faster pf -> batch_ns (single_copy_profile pf) b <= batch_ns pf b.
Proof.
  intros pf [[rt n] bytes] Hf. unfold single_copy_faster in Hf. unfold single_copy_profile.
  destruct (pf_single_copy pf) as [l |]; [| lia].
  destruct Hf as [Hl [Hb Hab]]. destruct rt; cbn [batch_ns pf_same_host pf_across_hosts pf_copy_bytes_per_us]; [lia | | lia].
  apply Nat.mul_le_mono_l. pose proof (transfer_ns_anti (lk_bytes_per_us l) (lk_bytes_per_us (pf_same_host pf)) bytes Hb Hab).
  lia.
Qed.

Lemma rank_ns_single_copy : forall pf bs, single_copy_faster pf -> rank_ns (single_copy_profile pf) bs <= rank_ns pf bs.
Proof. intros pf bs Hf. apply list_sum_le. intros b _. apply batch_ns_single_copy, Hf. Qed.

(** A call run in place copies no less than through scratch. *)
Lemma call_batches_direct_le : forall pf h c r from,
  rank_ns pf (call_batches h true c r from) <= rank_ns pf (call_batches h false c r from).
Proof.
  intros pf h c r from. unfold call_batches, rank_ns.
  destruct (cl_op c) as [[] |]; destruct (cl_group c); rewrite ?app_nil_r; try lia;
    rewrite map_app, list_sum_app; lia.
Qed.

Lemma call_rank_ns_single_copy : forall pf h one_host c r from, single_copy_faster pf ->
  call_rank_ns pf h one_host c r from <= call_rank_ns (without_single_copy pf) h one_host c r from.
Proof.
  intros pf h one_host c r from Hf. unfold call_rank_ns at 2. cbn [has_single_copy without_single_copy pf_single_copy andb].
  rewrite rank_ns_without. unfold call_rank_ns.
  destruct (has_single_copy pf && call_by_single_copy h one_host c r); [| lia].
  eapply Nat.le_trans; [apply rank_ns_single_copy, Hf | apply call_batches_direct_le].
Qed.

Lemma max_along_mono : forall (f g : nat -> nat -> nat) n r table a b, (forall r from, f r from <= g r from) ->
  a <= b -> max_along f r n table a <= max_along g r n table b.
Proof.
  intros f g n. induction n as [|n IH]; intros r table a b H Hab; simpl; [exact Hab |].
  destruct table as [|from rest]; apply IH; auto.
  - pose proof (H r r). lia.
  - pose proof (H r from). lia.
Qed.

Lemma runs_sum_mono : forall (f g : bool -> nat -> nat) rss inside size, (forall i s, f i s <= g i s) ->
  runs_sum f inside size rss <= runs_sum g inside size rss.
Proof.
  intros f g rss. induction rss as [|rs rss IH]; intros inside size H; simpl; [apply H |].
  apply list_sum_le. intros [[len i] k] _. apply Nat.mul_le_mono_l, IH, H.
Qed.

Lemma exchange_cell_ns_single_copy : forall pf spanned elem held cells, single_copy_faster pf ->
  exchange_cell_ns (single_copy_profile pf) spanned elem held cells <= exchange_cell_ns pf spanned elem held cells.
Proof.
  intros pf spanned elem held cells Hf. unfold exchange_cell_ns.
  pose proof (batch_ns_single_copy pf (Local, 1, cells * elem) Hf).
  pose proof (batch_ns_single_copy pf (SameHost, 1, cells * elem) Hf).
  pose proof (batch_ns_single_copy pf (AcrossHosts, 1, cells * elem) Hf).
  destruct held; [lia |]. destruct spanned; lia.
Qed.

Lemma exchange_rank_ns_without : forall pf spanned tS tT elem S T r,
  exchange_rank_ns (without_single_copy pf) spanned tS tT elem S T r = exchange_rank_ns pf spanned tS tT elem S T r.
Proof.
  intros. unfold exchange_rank_ns. destruct (box_in T tT r); [| reflexivity].
  destruct (match box_in S tS r with Some sb => _ | None => _ end) as [sb held].
  apply Nat.le_antisymm; apply runs_sum_mono; intros i s; unfold exchange_cell_ns; rewrite ?batch_ns_without; lia.
Qed.

Theorem single_copy_no_slower : forall pf h elem pg, single_copy_faster pf ->
  Forall2 le (program_steps_ns pf h elem pg) (program_steps_ns (without_single_copy pf) h elem pg).
Proof.
  intros pf h elem pg. revert pf. induction pg as [m cs | x | n first IHf second IHs]; intros pf Hf; cbn [program_steps_ns].
  - induction cs as [|c cs IH]; cbn [map]; constructor; [| exact IH].
    apply max_along_mono; [intros; apply call_rank_ns_single_copy, Hf | lia].
  - constructor; [| constructor]. apply max_over_mono. intros r _.
    unfold single_copy_profile at 2. cbn [without_single_copy pf_single_copy]. rewrite exchange_rank_ns_without.
    unfold exchange_rank_ns. destruct (box_in _ _ r); [| lia].
    destruct (match box_in (xc_from x) _ r with Some sb => _ | None => _ end) as [sb held].
    apply runs_sum_mono. intros i s. apply exchange_cell_ns_single_copy, Hf.
  - apply Forall2_app; [apply IHf, Hf |].
    change (without_single_copy (without_single_copy pf)) with (without_single_copy pf).
    assert (Hrefl : forall l, Forall2 le l l) by (intros l; induction l; constructor; auto).
    apply Hrefl.
Qed.
