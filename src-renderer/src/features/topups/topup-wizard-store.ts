import { create } from 'zustand';
import type { TopUp } from '../../../../src-shared/api-types';
import type {
  IpcError,
  IpcResult,
  SimulatedPayment,
  TopUpPaymentDetails,
  TopUpPlanChoice,
} from '../../../../src-shared/contract';
import { callApi } from '../../api/window-api';
import { idle, loading, settled, type Loadable } from '../../shared/loadable';
import { useAppStore } from '../app/app-store';
import { checkAmountUsd, checkOptions, checkQuantity, checkTxid } from './topup-input';

/** The steps before a top-up exists; after that the wizard shows the top-up's own state. */
export type DraftStep = 'amount' | 'coin';

export interface PurchaseDraft {
  enabled: boolean;
  planId: string;
  quantity: string;
  /** JSON object text: the options' shape is the service's. */
  options: string;
  promoCode: string;
}

export interface TopUpDraft {
  amount: string;
  purchase: PurchaseDraft;
  coin: string | null;
  network: string | null;
}

/** The subscription or port a top-up was started for ("Top up…" on it): its plan is the purchase. */
export interface TopUpTarget {
  source: 'subscription' | 'port';
  id: string;
  /** What the user knows it by (its label, or its id when it has none). */
  label: string;
  planId: string;
}

/** What the wizard shows: a draft step, the pay step, the "I have sent it" form, or the live status. */
export type WizardView = DraftStep | 'pay' | 'declare' | 'status';

interface WizardStore {
  open: boolean;
  step: DraftStep;
  draft: TopUpDraft;
  /**
   * Made once per attempt and kept until the draft changes: main stores it as the request's
   * Idempotency-Key before sending, so a double click or a resubmit after an error is the same top-up.
   */
  attemptId: string | null;
  creating: boolean;
  createError: IpcError | null;
  /** The item "Top up…" was chosen on, whose plan the purchase was filled with; null otherwise. */
  target: TopUpTarget | null;
  /** The top-up the wizard follows (created here or opened from the history); live through events. */
  topUp: TopUp | null;
  payment: Loadable<TopUpPaymentDetails>;
  plans: Loadable<TopUpPlanChoice[]>;
  /** The "I have sent it" form is open. */
  declaring: boolean;
  txid: string;
  submittingTxid: boolean;
  declareError: IpcError | null;
  simulating: SimulatedPayment | null;
  simulateError: IpcError | null;
  /** Why the last "Open in wallet" or explorer link did not open (desktop). */
  linkError: IpcError | null;

  /** "Add funds": reopens a top-up in progress, or starts a fresh one. */
  start: () => void;
  /**
   * "Top up…" on a subscription or a port: a fresh draft whose purchase is its plan (quantity 1), so
   * the credited funds renew it. A top-up in progress stays watched and in the history.
   */
  startFor: (target: TopUpTarget) => void;
  /**
   * The same from an id alone (the overview's item): reads the subscription or the port for its plan.
   * When it cannot be read the wizard still opens, with an empty draft, and the error is answered.
   */
  startForItem: (item: { source: TopUpTarget['source']; id: string }) => Promise<IpcResult<TopUpTarget>>;
  /** Starts over (after a final state, or to drop a draft). */
  startNew: () => void;
  close: () => void;
  setAmount: (amount: string) => void;
  setPurchase: (patch: Partial<PurchaseDraft>) => void;
  loadPlans: (force?: boolean) => Promise<void>;
  goTo: (step: DraftStep) => void;
  chooseNetwork: (coin: string, network: string) => void;
  create: () => Promise<void>;
  /** Shows any top-up (from the history) in the wizard's live view. */
  openTopUp: (topUp: TopUp) => void;
  /**
   * Reads a top-up and shows it in the live view (a clicked notification names only its id); the
   * wizard stays as it was when it cannot be read, and the caller says why.
   */
  openTopUpById: (topUpId: string) => Promise<IpcResult<TopUp>>;
  loadPayment: () => Promise<void>;
  showDeclare: (show: boolean) => void;
  setTxid: (txid: string) => void;
  declare: () => Promise<void>;
  simulate: (kind: SimulatedPayment) => Promise<void>;
  /**
   * A click on the explorer link or "Open in wallet". The desktop window may not navigate away, so
   * main opens the link (`app:openExternal`, which checks it) and this returns true: the click's
   * default must be prevented. In web mode it returns false and the browser follows the link.
   */
  openLink: (url: string) => boolean;
  /** `topups:changed` from main (through the event bridge). */
  applyChanges: (changed: TopUp[]) => void;
  /** After a reconnect events may have been missed: reads the followed top-up again. */
  reloadLoaded: () => Promise<void>;
  reset: () => void;
}

const emptyDraft = (): TopUpDraft => ({
  amount: '',
  purchase: { enabled: false, planId: '', quantity: '1', options: '', promoCode: '' },
  coin: null,
  network: null,
});

const fresh = () => ({
  step: 'amount' as DraftStep,
  draft: emptyDraft(),
  target: null as TopUpTarget | null,
  attemptId: null,
  creating: false,
  createError: null,
  topUp: null,
  payment: idle<TopUpPaymentDetails>(),
  declaring: false,
  txid: '',
  submittingTxid: false,
  declareError: null,
  simulating: null,
  simulateError: null,
  linkError: null,
});

const DECLARABLE = ['awaiting_payment', 'expired', 'rejected'];

/** Until when a txid may be declared for this top-up (the service's rule); null when it may not at all. */
export const declarationDeadline = (topUp: TopUp): string | null =>
  DECLARABLE.includes(topUp.status) ? topUp.txidDeadline : null;

export function viewOf(store: Pick<WizardStore, 'step' | 'topUp' | 'declaring'>): WizardView {
  if (!store.topUp) return store.step;
  if (store.declaring) return 'declare';
  return store.topUp.status === 'awaiting_payment' ? 'pay' : 'status';
}

export type PurchaseBody = {
  planId: string;
  quantity: number;
  options?: Record<string, unknown>;
  promoCode?: string;
};

/** The purchase as the contract takes it, or the first field error the form shows. */
export function purchaseOf(
  draft: PurchaseDraft,
): { ok: true; value: PurchaseBody | undefined } | { ok: false; field: string; message: string } {
  if (!draft.enabled) return { ok: true, value: undefined };
  const planId = draft.planId.trim();
  if (planId === '') return { ok: false, field: 'purchase.planId', message: 'Choose a plan or type its id.' };
  const quantity = checkQuantity(draft.quantity);
  if (!quantity.ok) return { ok: false, field: 'purchase.quantity', message: quantity.message };
  const options = checkOptions(draft.options);
  if (!options.ok) return { ok: false, field: 'purchase.options', message: options.message };
  const promoCode = draft.promoCode.trim();
  return {
    ok: true,
    value: {
      planId,
      quantity: quantity.quantity,
      ...(Object.keys(options.options).length > 0 ? { options: options.options } : {}),
      ...(promoCode ? { promoCode } : {}),
    },
  };
}

const newAttemptId = (): string => crypto.randomUUID();

export const useTopUpWizardStore = create<WizardStore>()((set, get) => {
  /** Any change of what would be sent is a new attempt: the old key must not name another request. */
  const editDraft = (draft: TopUpDraft) => set({ draft, attemptId: null, createError: null });

  return {
    open: false,
    plans: idle<TopUpPlanChoice[]>(),
    ...fresh(),

    start: () => {
      const { topUp } = get();
      if (topUp?.final) set({ ...fresh(), open: true });
      else set({ open: true });
    },

    startNew: () => set({ ...fresh(), open: true }),

    startFor: (target) => {
      const draft = emptyDraft();
      set({
        ...fresh(),
        open: true,
        target,
        draft: { ...draft, purchase: { ...draft.purchase, enabled: true, planId: target.planId } },
      });
    },

    startForItem: async ({ source, id }) => {
      const result =
        source === 'subscription'
          ? await callApi((api) => api.subscriptions.get({ subscriptionId: id }))
          : await callApi((api) => api.ports.get({ portId: id }));
      if (!result.ok) {
        get().startNew();
        return result;
      }
      const target: TopUpTarget = {
        source,
        id,
        label: result.value.label.trim() || id,
        planId: result.value.planId,
      };
      get().startFor(target);
      return { ok: true, value: target };
    },

    close: () => set({ open: false }),

    setAmount: (amount) => editDraft({ ...get().draft, amount }),

    setPurchase: (patch) => {
      const { draft } = get();
      editDraft({ ...draft, purchase: { ...draft.purchase, ...patch } });
    },

    loadPlans: async (force = false) => {
      const { plans } = get();
      if (plans.status === 'loading' || (plans.status === 'ready' && !force)) return;
      set({ plans: loading(plans) });
      const result = await callApi((api) => api.topups.plans());
      set({ plans: settled(get().plans, result) });
    },

    goTo: (step) => {
      if (get().topUp) return;
      if (step === 'coin') {
        const { draft } = get();
        if (!checkAmountUsd(draft.amount).ok || !purchaseOf(draft.purchase).ok) return;
      }
      set({ step });
    },

    chooseNetwork: (coin, network) => editDraft({ ...get().draft, coin, network }),

    create: async () => {
      const { draft, creating, topUp } = get();
      // A second click while the first is in flight, or after it succeeded, sends nothing.
      if (creating || topUp) return;
      const amount = checkAmountUsd(draft.amount);
      const purchase = purchaseOf(draft.purchase);
      if (!amount.ok || !purchase.ok || !draft.coin || !draft.network) return;
      const attemptId = get().attemptId ?? newAttemptId();
      set({ attemptId, creating: true, createError: null });
      const result = await callApi((api) =>
        api.topups.create({
          amountUsd: amount.amountUsd,
          coin: draft.coin ?? '',
          network: draft.network ?? '',
          attemptId,
          ...(purchase.value ? { purchase: purchase.value } : {}),
        }),
      );
      // The wizard was reset (account switch) while this was in flight: nothing to show it in.
      if (get().attemptId !== attemptId) return;
      if (!result.ok) {
        const onAmountStep =
          (result.error.fields ?? []).some(
            (field) => field.field === 'amountUsd' || field.field.startsWith('purchase'),
          ) ||
          result.error.code === 'plan_unavailable' ||
          result.error.code === 'too_small';
        set({
          creating: false,
          createError: result.error,
          ...(onAmountStep ? { step: 'amount' as DraftStep } : {}),
        });
        return;
      }
      set({ creating: false, topUp: result.value, payment: idle() });
      void get().loadPayment();
    },

    openTopUp: (topUp) => {
      set({ ...fresh(), open: true, topUp, step: 'coin' });
      void get().loadPayment();
      // The history's row may be older than the top-up (a page read before it expired): read it again.
      void get().reloadLoaded();
    },

    openTopUpById: async (topUpId) => {
      const result = await callApi((api) => api.topups.get({ topUpId }));
      if (result.ok) {
        // As `openTopUp`, without its second read: this one is fresh.
        set({ ...fresh(), open: true, topUp: result.value, step: 'coin' });
        void get().loadPayment();
      }
      return result;
    },

    loadPayment: async () => {
      const { topUp, payment } = get();
      if (!topUp || payment.status === 'loading') return;
      set({ payment: loading(payment) });
      const result = await callApi((api) => api.topups.paymentDetails({ topUpId: topUp.id }));
      if (get().topUp?.id !== topUp.id) return;
      set({ payment: settled(get().payment, result) });
    },

    showDeclare: (declaring) => set({ declaring, declareError: null }),

    setTxid: (txid) => set({ txid, declareError: null }),

    declare: async () => {
      const { topUp, txid, submittingTxid } = get();
      if (!topUp || submittingTxid) return;
      const checked = checkTxid(topUp.network, txid);
      if (!checked.ok) return;
      set({ submittingTxid: true, declareError: null });
      const result = await callApi((api) =>
        api.topups.declareTxid({ topUpId: topUp.id, ...(checked.txid ? { txid: checked.txid } : {}) }),
      );
      if (get().topUp?.id !== topUp.id) return;
      if (!result.ok) {
        set({ submittingTxid: false, declareError: result.error });
        return;
      }
      set({ submittingTxid: false, declaring: false, txid: '', topUp: result.value });
      void get().loadPayment();
    },

    simulate: async (kind) => {
      const { topUp, simulating } = get();
      if (!topUp || simulating) return;
      set({ simulating: kind, simulateError: null });
      const result = await callApi((api) => api.topups.simulatePayment({ topUpId: topUp.id, kind }));
      if (get().topUp?.id !== topUp.id) return;
      if (!result.ok) set({ simulating: null, simulateError: result.error });
      else {
        set({ simulating: null });
        get().applyChanges([result.value]);
      }
    },

    openLink: (url) => {
      if (useAppStore.getState().state?.mode !== 'desktop') return false;
      set({ linkError: null });
      void callApi((api) => api.app.openExternal({ url })).then((result) => {
        if (!result.ok) set({ linkError: result.error });
      });
      return true;
    },

    applyChanges: (changed) => {
      const { topUp } = get();
      if (!topUp) return;
      const next = changed.find((item) => item.id === topUp.id);
      if (!next) return;
      const txidChanged = next.txid !== topUp.txid || next.explorerUrl !== topUp.explorerUrl;
      set({ topUp: next });
      // The explorer link comes with the txid (main checks it is https).
      if (txidChanged) void get().loadPayment();
    },

    reloadLoaded: async () => {
      const { topUp } = get();
      if (!topUp) return;
      const result = await callApi((api) => api.topups.get({ topUpId: topUp.id }));
      if (result.ok) get().applyChanges([result.value]);
    },

    reset: () => set({ ...fresh(), open: false, plans: idle<TopUpPlanChoice[]>() }),
  };
});
