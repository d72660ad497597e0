(** * The direct exchange moves the right data and receives exactly what is missing.

    - [exchange_sound]: for any holder choice that returns holders, after the
      exchange every rank of the target mesh holds exactly its target box
      (ranks outside it hold nothing: they have no box).
    - [exchange_recv_exact]: when the choice also keeps what a rank holds,
      each rank receives exactly the elements of its target box that are not
      in its source box.
    - [spread_holder_ok]: the command's choice does both, on every pair of
      well-formed layouts of one global shape. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Radix Semanticsproof Trafficproof Layout Layoutproof Exchange.

(** [h] names, for every index of a target box, a source rank whose box has it. *)
Definition returns_holders (S T : layout) (h : holder_choice) : Prop :=
  forall r b i, pl_box T r = Some b -> box_has b i = true -> has_opt (pl_box S (h r i)) i = true.

(** [h] keeps, on every rank, the elements its source box has. *)
Definition picks_self (S : layout) (h : holder_choice) : Prop :=
  forall r i, has_opt (pl_box S r) i = true -> h r i = r.

Theorem exchange_sound : forall S T h A (g : list nat -> A) (st : state A),
  returns_holders S T h -> pl_holds S g st -> pl_holds T g (exchange S T h st).
Proof.
  intros S T h A g st Hh Hst r b Hb l Hl.
  unfold exchange, run_wire, exchange_wire. rewrite Hb. cbn [fst snd].
  pose proof (Hh r b (box_global b l) Hb (box_global_has b l Hl)) as Hi.
  destruct (pl_box S (h r (box_global b l))) as [sb|] eqn:Hsb; [| discriminate].
  simpl in Hi. destruct (box_has_local sb _ Hi) as [H1 H2].
  rewrite (Hst _ sb Hsb _ H1), H2. reflexivity.
Qed.

Theorem exchange_recv_exact : forall S T h r,
  returns_holders S T h -> picks_self S h ->
  exchange_received S T h r = length (missing S T r).
Proof.
  intros S T h r Hh Hself.
  unfold exchange_received, wire_received, positions, pl_shapes, missing.
  destruct (pl_box T r) as [b|] eqn:Hb; [| reflexivity]. simpl.
  rewrite length_filter_map. f_equal. apply filter_ext_in. intros l Hl.
  apply in_box_indices in Hl. unfold exchange_wire. rewrite Hb. cbn [fst]. f_equal.
  destruct (has_opt (pl_box S r) (box_global b l)) eqn:E.
  - rewrite (Hself r _ E). apply Nat.eqb_refl.
  - apply Nat.eqb_neq. intros E'.
    pose proof (Hh r b (box_global b l) Hb (box_global_has b l Hl)) as Hi.
    rewrite E' in Hi. congruence.
Qed.

Lemma combine_by_position : forall (ws : list nat) (f : nat -> box),
  combine ws (map f (seq 0 (length ws))) = map (fun k => (nth k ws 0, f k)) (seq 0 (length ws)).
Proof.
  induction ws as [|w ws IH]; intros f; [reflexivity |].
  simpl. rewrite <- (seq_shift (length ws) 0), !map_map. f_equal. apply (IH (fun k => f (S k))).
Qed.

(** The [k]-th pair of [mesh_boxes]: the [k]-th world rank and device [k]'s box. *)
Lemma mesh_boxes_by_position : forall L, mesh_boxes L =
  map (fun k => (nth k (pm_ranks (ly_mesh L)) 0, dev_box (ly_m L) (ly_ty L) (device_of_rank (ly_m L) k)))
      (seq 0 (length (pm_ranks (ly_mesh L)))).
Proof. intros L. apply combine_by_position. Qed.

Lemma mesh_boxes_pl_box : forall L w b, pmesh_wf (ly_mesh L) = true ->
  In (w, b) (mesh_boxes L) <-> pl_box L w = Some b.
Proof.
  intros L w b Hwf. unfold pmesh_wf in Hwf. rewrite !andb_true_iff, ranks_distinct_NoDup in Hwf.
  destruct Hwf as [_ Hnd]. rewrite mesh_boxes_by_position. unfold pl_box. rewrite in_map_iff. split.
  - intros [k [E Hk]]. inversion E. subst. apply in_seq0 in Hk.
    rewrite index_of_nth by assumption. reflexivity.
  - intros H. destruct (index_of w (pm_ranks (ly_mesh L))) as [k|] eqn:Hk; [| discriminate].
    inversion H. subst b. apply index_of_Some in Hk. destruct Hk as [Hk Ew].
    exists k. rewrite Ew. split; [reflexivity | apply in_seq0; exact Hk].
Qed.

Lemma holders_of_spec : forall S i s, pmesh_wf (ly_mesh S) = true ->
  In s (holders_of S i) <-> has_opt (pl_box S s) i = true.
Proof.
  intros S i s Hwf. unfold holders_of, holders_in. rewrite in_map_iff. split.
  - intros [[w b] [E Hin]]. simpl in E. subst w. apply filter_In in Hin. destruct Hin as [Hin Hb].
    apply mesh_boxes_pl_box in Hin; [| exact Hwf]. rewrite Hin. exact Hb.
  - intros H. destruct (pl_box S s) as [b|] eqn:Hb; [| discriminate].
    exists (s, b). split; [reflexivity |]. apply filter_In. split; [| exact H].
    apply mesh_boxes_pl_box; assumption.
Qed.

Theorem spread_holder_ok : forall S T, layouts_wf S T = true ->
  returns_holders S T (spread_holder S T) /\ picks_self S (spread_holder S T).
Proof.
  intros S T Hwf. split.
  - intros r b i Hb Hi. unfold spread_holder, spread_in. fold (holders_of S i).
    destruct (has_opt (pl_box S r) i) eqn:E; [exact E |].
    destruct (covered S T r b i Hwf Hb Hi) as [s [Hs Hsi]].
    assert (HwS : pmesh_wf (ly_mesh S) = true)
      by (unfold layouts_wf, layout_wf in Hwf; rewrite !andb_true_iff in Hwf; tauto).
    assert (Hin : In s (holders_of S i)) by (apply holders_of_spec; assumption).
    set (hs := holders_of S i) in *. set (k := match index_of r (needers_of S T i) with
                                               | Some k => k | None => 0 end).
    assert (Hlen : length hs <> 0) by (destruct hs; simpl in *; [contradiction | lia]).
    assert (Hn : In (nth (k mod length hs) hs r) hs)
      by (apply nth_In; apply Nat.mod_upper_bound; exact Hlen).
    apply holders_of_spec in Hn; assumption.
  - intros r i H. unfold spread_holder, spread_in. rewrite H. reflexivity.
Qed.

(** ** Holders are chosen per cell of blocks *)

Lemma dim_block_has : forall m d c x, 1 <= shards m d ->
  let '(lo, n) := dim_block m d c in
  (lo <=? x) && (x <? lo + n) = (x <? snd d) && (x / block_size m d =? radix m c (fst d)).
Proof.
  intros m d c x HP. unfold dim_block.
  pose proof (ceil_div_ge (snd d) (shards m d) HP) as Hc. unfold block_size in *.
  set (b := ceil_div (snd d) (shards m d)) in *. set (j := radix m c (fst d)).
  destruct (Nat.eq_dec b 0) as [E | Hb].
  - rewrite E in *. rewrite Nat.mul_0_r in Hc. rewrite !Nat.mul_0_r.
    replace (snd d) with 0 by lia. simpl. destruct (0 <=? x); reflexivity.
  - pose proof (Nat.div_mod x b Hb). pose proof (Nat.mod_upper_bound x b Hb).
    destruct (Nat.ltb_spec x (snd d)) as [Hx | Hx]; simpl.
    + destruct (Nat.eqb_spec (x / b) j) as [Ej | Ej].
      * rewrite andb_true_iff, Nat.leb_le, Nat.ltb_lt. nia.
      * apply andb_false_iff. destruct (Nat.le_gt_cases (x / b) j).
        -- left. apply Nat.leb_gt. nia.
        -- right. apply Nat.ltb_ge. nia.
    + apply andb_false_iff. right. apply Nat.ltb_ge. lia.
Qed.

Lemma box_has_by_key : forall m t c i j, (forall d, In d t -> 1 <= shards m d) ->
  in_shape i t -> in_shape j t -> block_key m t i = block_key m t j ->
  box_has (dev_box m t c) i = box_has (dev_box m t c) j.
Proof.
  intros m t c i j HP Hi. revert j. induction Hi as [| x d i t Hx Hi IH]; intros j Hj E;
    inversion Hj as [| y ? j' ? Hy Hj']; subst; [reflexivity |].
  simpl in E. inversion E as [[Exy Ekey]].
  change (dev_box m (d :: t) c) with (dim_block m d c :: dev_box m t c).
  assert (HPd : 1 <= shards m d) by (apply HP; left; reflexivity).
  pose proof (dim_block_has m d c x HPd) as Hdx. pose proof (dim_block_has m d c y HPd) as Hdy.
  destruct (dim_block m d c) as [lo n]. cbn [box_has].
  rewrite Hdx, Hdy, Exy, (IH (fun e He => HP e (or_intror He)) j' Hj' Ekey).
  apply Nat.ltb_lt in Hx. apply Nat.ltb_lt in Hy. rewrite Hx, Hy. reflexivity.
Qed.

Lemma has_opt_by_key : forall L w i j, layout_wf L = true ->
  in_shape i (ly_ty L) -> in_shape j (ly_ty L) ->
  block_key (ly_m L) (ly_ty L) i = block_key (ly_m L) (ly_ty L) j ->
  has_opt (pl_box L w) i = has_opt (pl_box L w) j.
Proof.
  intros L w i j Hwf Hi Hj E. unfold layout_wf, pmesh_wf in Hwf.
  rewrite !andb_true_iff in Hwf. destruct Hwf as [[[Hm _] _] Ht]. apply lty_wf_iff in Ht.
  unfold pl_box. destruct (index_of w (pm_ranks (ly_mesh L))); [| reflexivity].
  simpl. apply box_has_by_key; auto. intros d Hd. apply shards_pos; [exact Hm |].
  intros x Hx. apply Ht. eapply In_ty_axes; eassumption.
Qed.

(** Two indices of the array in the same source block and the same target
    block in every dimension get the same holder. *)
Theorem spread_holder_blockwise : forall S T r i j, layouts_wf S T = true ->
  in_shape i (ly_ty T) -> in_shape j (ly_ty T) ->
  block_key (ly_m S) (ly_ty S) i = block_key (ly_m S) (ly_ty S) j ->
  block_key (ly_m T) (ly_ty T) i = block_key (ly_m T) (ly_ty T) j ->
  spread_holder S T r i = spread_holder S T r j.
Proof.
  intros S T r i j Hwf Hi Hj ES ET.
  pose proof Hwf as H. unfold layouts_wf in H. rewrite !andb_true_iff, list_eqb_eq in H.
  destruct H as [[HS HT] Hg].
  assert (HiS : in_shape i (ly_ty S)) by (eapply in_shape_same_global; [symmetry; exact Hg | exact Hi]).
  assert (HjS : in_shape j (ly_ty S)) by (eapply in_shape_same_global; [symmetry; exact Hg | exact Hj]).
  assert (Hs : forall w, has_opt (pl_box S w) i = has_opt (pl_box S w) j)
    by (intros w; apply has_opt_by_key; assumption).
  assert (Ht : forall w, has_opt (pl_box T w) i = has_opt (pl_box T w) j)
    by (intros w; apply has_opt_by_key; assumption).
  assert (HwS : pmesh_wf (ly_mesh S) = true)
    by (unfold layout_wf in HS; rewrite andb_true_iff in HS; tauto).
  assert (HwT : pmesh_wf (ly_mesh T) = true)
    by (unfold layout_wf in HT; rewrite andb_true_iff in HT; tauto).
  assert (Hh : holders_of S i = holders_of S j).
  { unfold holders_of, holders_in. f_equal. apply filter_ext_in. intros [w b] Hin. simpl.
    apply mesh_boxes_pl_box in Hin; [| exact HwS]. specialize (Hs w). rewrite Hin in Hs. exact Hs. }
  unfold spread_holder, spread_in, needers_in. fold (holders_of S i) (holders_of S j). rewrite Hs, Hh.
  rewrite (filter_ext_in (fun wb => box_has (snd wb) i && negb (memb (fst wb) (holders_of S j)))
                         (fun wb => box_has (snd wb) j && negb (memb (fst wb) (holders_of S j))));
    [reflexivity |].
  intros [w b] Hin. simpl.
  apply mesh_boxes_pl_box in Hin; [| exact HwT]. specialize (Ht w). rewrite Hin in Ht. simpl in Ht.
  rewrite Ht. reflexivity.
Qed.

(** ** Messages of boxes *)

(** The block index of each coordinate, for divisors [bs]. *)
Fixpoint divs (bs i : list nat) : list nat :=
  match bs, i with
  | b :: bs', y :: i' => y / b :: divs bs' i'
  | _, _ => []
  end.

Lemma div_between : forall y q b, q * b <= y < S q * b -> y / b = q.
Proof. intros y q b H. symmetry. apply (Nat.div_unique _ _ _ (y - q * b)); simpl in H; nia. Qed.

Lemma next_gt : forall lo b, 1 <= b -> lo < S (lo / b) * b.
Proof.
  intros lo b Hb. pose proof (Nat.div_mod lo b ltac:(lia)). pose proof (Nat.mod_upper_bound lo b ltac:(lia)).
  simpl. nia.
Qed.

Lemma cuts_props : forall fuel lo hi bs bt, 1 <= bs -> 1 <= bt -> forall a k,
  In (a, k) (cuts fuel lo hi bs bt) ->
  lo <= a /\ 1 <= k /\ a + k <= hi
  /\ forall y, a <= y < a + k -> y / bs = a / bs /\ y / bt = a / bt.
Proof.
  induction fuel as [|f IH]; intros lo hi bs bt Hs Ht a k H; simpl in H; [contradiction |].
  destruct (Nat.ltb_spec lo hi) as [Hlh | _]; [| contradiction].
  pose proof (next_gt lo bs Hs). pose proof (next_gt lo bt Ht).
  destruct H as [E | H].
  - inversion E. subst a k. repeat split; try lia.
    + apply div_between. pose proof (Nat.div_mod lo bs ltac:(lia)). nia.
    + apply div_between. pose proof (Nat.div_mod lo bt ltac:(lia)). nia.
  - destruct (IH _ hi bs bt Hs Ht a k H) as [Ha Hrest]. split; [lia | exact Hrest].
Qed.

Lemma cuts_cover : forall fuel lo hi bs bt, 1 <= bs -> 1 <= bt -> hi - lo <= fuel ->
  forall y, lo <= y < hi -> exists a k, In (a, k) (cuts fuel lo hi bs bt) /\ a <= y < a + k.
Proof.
  induction fuel as [|f IH]; intros lo hi bs bt Hs Ht Hf y Hy; [lia |]. simpl.
  destruct (Nat.ltb_spec lo hi) as [_ | ?]; [| lia].
  pose proof (next_gt lo bs Hs). pose proof (next_gt lo bt Ht).
  set (next := Nat.min hi (Nat.min (S (lo / bs) * bs) (S (lo / bt) * bt))).
  destruct (Nat.ltb_spec y next).
  - exists lo, (next - lo). split; [left; reflexivity | lia].
  - destruct (IH next hi bs bt Hs Ht ltac:(unfold next in *; lia) y ltac:(lia)) as [a [k [Hin Hak]]].
    exists a, k. split; [right; exact Hin | exact Hak].
Qed.

Lemma cuts_unique : forall fuel lo hi bs bt, 1 <= bs -> 1 <= bt -> forall a k a' k' y,
  In (a, k) (cuts fuel lo hi bs bt) -> In (a', k') (cuts fuel lo hi bs bt) ->
  a <= y < a + k -> a' <= y < a' + k' -> a = a' /\ k = k'.
Proof.
  induction fuel as [|f IH]; intros lo hi bs bt Hs Ht a k a' k' y H H' Hy Hy'; simpl in H, H';
    [contradiction |].
  destruct (Nat.ltb_spec lo hi); [| contradiction].
  destruct H as [E | H]; destruct H' as [E' | H'].
  - inversion E. inversion E'. subst. auto.
  - inversion E. subst. destruct (cuts_props _ _ _ _ _ Hs Ht _ _ H') as [Ha _]. lia.
  - inversion E'. subst. destruct (cuts_props _ _ _ _ _ Hs Ht _ _ H) as [Ha _]. lia.
  - exact (IH _ _ _ _ Hs Ht _ _ _ _ _ H H' Hy Hy').
Qed.

Lemma block_key_divs : forall m t i, block_key m t i = divs (map (block_size m) t) i.
Proof. induction t as [|d t IH]; intros [|y i]; simpl; auto. rewrite IH. reflexivity. Qed.

Lemma In_cell_boxes : forall ivss c, In c (cell_boxes ivss) <-> Forall2 (@In (nat * nat)) c ivss.
Proof.
  induction ivss as [|ivs rest IH]; intros c; simpl.
  - split; [intros [<- | []]; constructor | intros H; inversion H; auto].
  - rewrite in_flat_map. split.
    + intros [iv [Hiv Hc]]. apply in_map_iff in Hc. destruct Hc as [c' [<- Hc']].
      constructor; [exact Hiv | apply IH; exact Hc'].
    + intros H. inversion H as [| iv ivs' c' rest' Hiv Hc']. subst.
      exists iv. split; [exact Hiv |]. apply in_map. apply IH. exact Hc'.
Qed.

Lemma div_max1 : forall y a b, y / Nat.max 1 b = a / Nat.max 1 b -> y / b = a / b.
Proof.
  intros y a [|b] H; [destruct y, a; reflexivity |].
  replace (Nat.max 1 (S b)) with (S b) in H by lia. exact H.
Qed.

(** An index in a cell is in the target box, in the same blocks as the
    cell's corner, which is in the cell. *)
Lemma cell_sound : forall tb bss bts c i, length bss = length tb -> length bts = length tb ->
  Forall2 (@In (nat * nat)) c (dims_cuts tb bss bts) -> box_has c i = true ->
  box_has tb i = true /\ box_has c (map fst c) = true /\ box_has tb (map fst c) = true
  /\ divs bss i = divs bss (map fst c) /\ divs bts i = divs bts (map fst c).
Proof.
  induction tb as [|[lo n] tb IH]; intros bss bts c i Hs Ht Hc Hi.
  - simpl in Hc. inversion Hc. subst. destruct i; [| discriminate]. destruct bss, bts; simpl; auto.
  - destruct bss as [|bs bss]; [discriminate |]. destruct bts as [|bt bts]; [discriminate |].
    simpl in Hc, Hs, Ht. inversion Hc as [| [a k] ivs c' rest Hak Hc']. subst.
    destruct i as [|y i]; [discriminate |]. simpl in Hi. rewrite !andb_true_iff, Nat.leb_le, Nat.ltb_lt in Hi.
    destruct Hi as [[Hay Hyk] Hi].
    destruct (IH bss bts c' i ltac:(lia) ltac:(lia) Hc' Hi) as [H1 [H2 [H3 [H4 H5]]]].
    destruct (cuts_props _ _ _ _ _ (Nat.le_max_l 1 bs) (Nat.le_max_l 1 bt) a k Hak) as [Hla [Hk [Hkh Hdiv]]].
    destruct (Hdiv y (conj Hay Hyk)) as [Ds Dt].
    simpl. rewrite H1, H2, H3, H4, H5, (div_max1 _ _ _ Ds), (div_max1 _ _ _ Dt).
    rewrite !andb_true_r.
    repeat split; try reflexivity.
    all: apply andb_true_iff; split; [apply Nat.leb_le | apply Nat.ltb_lt]; lia.
Qed.

(** Every index of the target box is in a cell, and in one only. *)
Lemma cell_cover : forall tb bss bts i, length bss = length tb -> length bts = length tb ->
  box_has tb i = true -> exists c, In c (cell_boxes (dims_cuts tb bss bts)) /\ box_has c i = true.
Proof.
  induction tb as [|[lo n] tb IH]; intros bss bts i Hs Ht Hi.
  - destruct i; [| discriminate]. exists []. simpl. auto.
  - destruct bss as [|bs bss]; [discriminate |]. destruct bts as [|bt bts]; [discriminate |].
    destruct i as [|y i]; [discriminate |]. simpl in Hi. rewrite !andb_true_iff, Nat.leb_le, Nat.ltb_lt in Hi.
    destruct Hi as [[Hly Hyn] Hi]. simpl in Hs, Ht.
    destruct (IH bss bts i ltac:(lia) ltac:(lia) Hi) as [c [Hc Hci]].
    destruct (cuts_cover n lo (lo + n) (Nat.max 1 bs) (Nat.max 1 bt) (Nat.le_max_l 1 bs) (Nat.le_max_l 1 bt)
                ltac:(lia) y ltac:(lia)) as [a [k [Hak Hy]]].
    exists ((a, k) :: c). split.
    + apply In_cell_boxes. simpl. constructor; [exact Hak | apply In_cell_boxes; exact Hc].
    + simpl. rewrite Hci. rewrite !andb_true_iff, Nat.leb_le, Nat.ltb_lt. lia.
Qed.

Lemma cell_unique : forall tb bss bts c c' i,
  In c (cell_boxes (dims_cuts tb bss bts)) -> In c' (cell_boxes (dims_cuts tb bss bts)) ->
  box_has c i = true -> box_has c' i = true -> c = c'.
Proof.
  induction tb as [|[lo n] tb IH]; intros bss bts c c' i Hc Hc' Hi Hi'.
  - simpl in Hc, Hc'. destruct Hc as [<- | []]. destruct Hc' as [<- | []]. reflexivity.
  - apply In_cell_boxes in Hc, Hc'.
    destruct bss as [|bs bss]; [inversion Hc; inversion Hc'; subst; reflexivity |].
    destruct bts as [|bt bts]; [inversion Hc; inversion Hc'; subst; reflexivity |].
    simpl in Hc, Hc'. inversion Hc as [| [a k] ivs c1 rest Hak Hc1]. inversion Hc' as [| [a' k'] ivs' c1' rest' Hak' Hc1']. subst.
    destruct i as [|y i]; [discriminate |]. simpl in Hi, Hi'.
    rewrite !andb_true_iff, !Nat.leb_le, !Nat.ltb_lt in Hi, Hi'.
    destruct (cuts_unique _ _ _ _ _ (Nat.le_max_l 1 bs) (Nat.le_max_l 1 bt) a k a' k' y Hak Hak'
                ltac:(lia) ltac:(lia)) as [-> ->].
    f_equal. apply (IH bss bts c1 c1' i); [apply In_cell_boxes; assumption .. | apply Hi | apply Hi'].
Qed.

Lemma recv_cells_dims : forall S T r tb, layouts_wf S T = true -> pl_box T r = Some tb ->
  length (map (block_size (ly_m S)) (ly_ty S)) = length tb
  /\ length (map (block_size (ly_m T)) (ly_ty T)) = length tb.
Proof.
  intros S T r tb Hwf Hb. unfold layouts_wf in Hwf. rewrite !andb_true_iff, list_eqb_eq in Hwf.
  destruct Hwf as [_ Hg]. apply global_shape_length in Hg.
  unfold pl_box in Hb. destruct (index_of r (pm_ranks (ly_mesh T))); [| discriminate].
  inversion Hb. rewrite !map_length, length_dev_box. lia.
Qed.

Theorem recv_messages_exact : forall S T r tb, layouts_wf S T = true -> pl_box T r = Some tb ->
  (forall s c i, In (s, c) (recv_messages S T r) -> box_has c i = true ->
     box_has tb i = true /\ spread_holder S T r i = s)
  /\ (forall i, box_has tb i = true ->
     exists s c, In (s, c) (recv_messages S T r) /\ box_has c i = true)
  /\ (forall s c s' c' i, In (s, c) (recv_messages S T r) -> In (s', c') (recv_messages S T r) ->
     box_has c i = true -> box_has c' i = true -> c = c' /\ s = s').
Proof.
  intros S T r tb Hwf Hb. destruct (recv_cells_dims S T r tb Hwf Hb) as [Hls Hlt].
  assert (Hcells : recv_cells S T r = cell_boxes (dims_cuts tb (map (block_size (ly_m S)) (ly_ty S))
                                                  (map (block_size (ly_m T)) (ly_ty T))))
    by (unfold recv_cells; rewrite Hb; reflexivity).
  assert (Hshape : forall i, box_has tb i = true -> in_shape i (ly_ty T)).
  { intros i Hi. unfold pl_box in Hb. destruct (index_of r (pm_ranks (ly_mesh T))); [| discriminate].
    inversion Hb. subst tb. eapply dev_box_in_shape. exact Hi. }
  unfold recv_messages. cbv zeta. fold (spread_holder S T). rewrite Hcells. split; [| split].
  - intros s c i Hin Hi. apply in_map_iff in Hin. destruct Hin as [c0 [E Hc0]]. inversion E. subst s c0.
    apply In_cell_boxes in Hc0.
    destruct (cell_sound _ _ _ c i Hls Hlt Hc0 Hi) as [H1 [_ [H3 [H4 H5]]]].
    split; [exact H1 |]. symmetry. apply spread_holder_blockwise; auto; rewrite !block_key_divs; auto.
  - intros i Hi. destruct (cell_cover _ _ _ i Hls Hlt Hi) as [c [Hc Hci]].
    exists (spread_holder S T r (map fst c)), c. split; [| exact Hci]. apply in_map_iff. eauto.
  - intros s c s' c' i Hin Hin' Hi Hi'. apply in_map_iff in Hin, Hin'.
    destruct Hin as [c0 [E Hc0]]. destruct Hin' as [c0' [E' Hc0']]. inversion E. inversion E'. subst.
    assert (c = c') as <- by (eapply cell_unique; eassumption). auto.
Qed.

Lemma cuts_NoDup : forall fuel lo hi bs bt, 1 <= bs -> 1 <= bt -> NoDup (cuts fuel lo hi bs bt).
Proof.
  induction fuel as [|f IH]; intros lo hi bs bt Hs Ht; simpl; [constructor |].
  destruct (Nat.ltb_spec lo hi); [| constructor].
  pose proof (next_gt lo bs Hs). pose proof (next_gt lo bt Ht). constructor; [| apply IH; assumption].
  intros Hin. destruct (cuts_props _ _ _ _ _ Hs Ht _ _ Hin) as [Hle _]. lia.
Qed.

Lemma cell_boxes_NoDup : forall ivss, Forall (@NoDup (nat * nat)) ivss -> NoDup (cell_boxes ivss).
Proof.
  induction ivss as [|ivs rest IH]; intros H; simpl; [repeat constructor; simpl; tauto |].
  inversion H as [| ? ? Hivs Hrest]. subst. specialize (IH Hrest). clear H Hrest.
  induction ivs as [|iv ivs IHv]; simpl; [constructor |].
  inversion Hivs as [| ? ? Hiv Hivs']. subst. apply NoDup_app_intro.
  - apply FinFun.Injective_map_NoDup; [intros a b E; inversion E; reflexivity | exact IH].
  - apply IHv. exact Hivs'.
  - intros c Hc Hc'. apply in_map_iff in Hc. destruct Hc as [c1 [<- _]].
    apply in_flat_map in Hc'. destruct Hc' as [iv' [Hiv' Hc']].
    apply in_map_iff in Hc'. destruct Hc' as [c2 [E _]]. inversion E. subst. contradiction.
Qed.

(** No cell is listed twice, so every index of the target box arrives once. *)
Theorem recv_cells_NoDup : forall S T r, NoDup (recv_cells S T r).
Proof.
  intros S T r. unfold recv_cells. destruct (pl_box T r) as [tb|]; [| constructor].
  apply cell_boxes_NoDup. generalize (map (block_size (ly_m S)) (ly_ty S)), (map (block_size (ly_m T)) (ly_ty T)).
  induction tb as [|[lo n] tb IH]; intros bss bts; [constructor |].
  destruct bss as [|bs bss]; [constructor |]. destruct bts as [|bt bts]; [constructor |].
  cbn [dims_cuts]. constructor; [apply cuts_NoDup; apply Nat.le_max_l | apply IH].
Qed.
