package hongbao.core.split;

import java.util.random.RandomGenerator;

/**
 * Moves fen between shares without favouring any position: every choice of where fen go is uniform
 * over the positions that can take them, so a policy whose shares are exchangeable before (every
 * position has the same distribution) stays exchangeable after.
 */
final class Excess {

  private Excess() {}

  /**
   * Cuts every share above {@code capFen} down to the cap and gives the excess to shares below it,
   * a random amount at a time to a uniformly chosen one. Terminates because the caller guarantees
   * {@code sum <= cap * count}.
   */
  static void spreadAboveCap(long[] shares, long capFen, RandomGenerator random) {
    long excess = 0;
    int[] open = new int[shares.length];
    int openCount = 0;
    for (int i = 0; i < shares.length; i++) {
      if (shares[i] > capFen) {
        excess += shares[i] - capFen;
        shares[i] = capFen;
      } else if (shares[i] < capFen) {
        open[openCount++] = i;
      }
    }
    while (excess > 0) {
      int slot = random.nextInt(openCount);
      int i = open[slot];
      long most = Math.min(capFen - shares[i], excess);
      long add = most == 1 ? 1 : random.nextLong(1, most + 1);
      shares[i] += add;
      excess -= add;
      if (shares[i] == capFen) {
        open[slot] = open[--openCount];
      }
    }
  }

  /**
   * Adds {@code fen} to the shares, at most one per share per round, each round on distinct
   * uniformly chosen positions (a partial shuffle).
   */
  static void addOneFenEach(long[] shares, long fen, RandomGenerator random) {
    int n = shares.length;
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    long left = fen;
    while (left > 0) {
      int round = (int) Math.min(left, n);
      for (int k = 0; k < round; k++) {
        int j = k + random.nextInt(n - k);
        int chosen = order[j];
        order[j] = order[k];
        order[k] = chosen;
        shares[chosen]++;
      }
      left -= round;
    }
  }

  /** Takes {@code fen} away one at a time from uniformly chosen shares above one fen. */
  static void takeOneFenEach(long[] shares, long fen, RandomGenerator random) {
    long left = fen;
    while (left > 0) {
      int i = random.nextInt(shares.length);
      if (shares[i] > 1) {
        shares[i]--;
        left--;
      }
    }
  }
}
