package hongbao.core.reward;

/**
 * The virtual queues a reward type is sent on. Each has a master and a backup topic on two queues
 * of different kinds, so that one queue cluster going down stops nothing.
 */
public enum VirtualQueue {
  /** Large volumes of cash. */
  MASSIVE,
  /** Coupons and other kinds with a slow issuer. */
  SPECIAL,
  /** Small, quick rewards. */
  EXPRESS
}
