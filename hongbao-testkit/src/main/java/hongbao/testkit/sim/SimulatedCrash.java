package hongbao.testkit.sim;

/**
 * The process died here. An {@link Error}, so that no catch of runtime exceptions in the code under
 * test carries on as if it had lived: whatever it did before stays done, nothing after happens.
 */
final class SimulatedCrash extends Error {
  private static final long serialVersionUID = 1L;

  SimulatedCrash(String where) {
    super("simulated crash " + where);
  }
}
