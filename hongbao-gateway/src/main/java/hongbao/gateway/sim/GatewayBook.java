package hongbao.gateway.sim;

import hongbao.core.money.Amount;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The simulated gateway's own ledger: every settlement (paid or finally refused) appended to a file
 * and forced to disk before the gateway answers, so a gateway killed with -9 still knows after a
 * restart what it paid. One line per out-trade-no, at most one ever:
 *
 * <pre>outTradeNo,userId,amountFen,SUCCESS|FAIL,reason,gatewayRef,time</pre>
 *
 * A torn last line (killed mid-write) is cut off on open: it was never answered. Requests being
 * processed live only in memory; a restart forgets them, as if they never arrived.
 */
final class GatewayBook implements AutoCloseable {

  /** One settlement. {@code reason} is "-" for a payment. */
  record Entry(
      String outTradeNo,
      String userId,
      Amount amount,
      boolean paid,
      String reason,
      String gatewayRef,
      Instant at) {

    String line() {
      return String.join(
          ",",
          outTradeNo,
          userId,
          Long.toString(amount.fen()),
          paid ? "SUCCESS" : "FAIL",
          reason,
          gatewayRef,
          at.toString());
    }

    static Entry parse(String line) {
      String[] cells = line.split(",", -1);
      if (cells.length != 7) {
        throw new IllegalArgumentException("not a book line: " + line);
      }
      return new Entry(
          cells[0],
          cells[1],
          Amount.fen(Long.parseLong(cells[2])),
          "SUCCESS".equals(cells[3]),
          cells[4],
          cells[5],
          Instant.parse(cells[6]));
    }
  }

  private final FileChannel file;
  private final Map<String, Entry> settled = new HashMap<>();
  private final Set<String> processing = new HashSet<>();

  private GatewayBook(FileChannel file) {
    this.file = file;
  }

  static GatewayBook open(Path path) {
    try {
      Files.createDirectories(path.toAbsolutePath().getParent());
      FileChannel file =
          FileChannel.open(
              path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      GatewayBook book = new GatewayBook(file);
      book.replay(Files.readString(path, StandardCharsets.UTF_8));
      return book;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the gateway book " + path, e);
    }
  }

  private void replay(String content) throws IOException {
    long goodBytes = 0;
    String[] lines = content.split("\n", -1);
    // The last element follows the last newline: empty, or a line whose write was cut short.
    for (int i = 0; i < lines.length - 1; i++) {
      try {
        Entry entry = Entry.parse(lines[i]);
        settled.put(entry.outTradeNo(), entry);
      } catch (IllegalArgumentException | DateTimeParseException e) {
        break; // garbage: nothing after it was written by a healthy gateway
      }
      goodBytes += lines[i].getBytes(StandardCharsets.UTF_8).length + 1;
    }
    file.truncate(goodBytes);
    file.position(goodBytes);
  }

  synchronized Optional<Entry> find(String outTradeNo) {
    return Optional.ofNullable(settled.get(outTradeNo));
  }

  synchronized boolean isProcessing(String outTradeNo) {
    return processing.contains(outTradeNo);
  }

  /** Claims the number for one request; false when it is settled or another request has it. */
  synchronized boolean startProcessing(String outTradeNo) {
    if (settled.containsKey(outTradeNo)) {
      return false;
    }
    return processing.add(outTradeNo);
  }

  /** A processed request that settled nothing (it was dropped). */
  synchronized void abandon(String outTradeNo) {
    processing.remove(outTradeNo);
  }

  synchronized Entry settle(Entry entry) {
    if (settled.containsKey(entry.outTradeNo())) {
      throw new IllegalStateException("out-trade-no " + entry.outTradeNo() + " settled twice");
    }
    try {
      ByteBuffer bytes = ByteBuffer.wrap((entry.line() + "\n").getBytes(StandardCharsets.UTF_8));
      while (bytes.hasRemaining()) {
        file.write(bytes);
      }
      file.force(false);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the gateway book", e);
    }
    settled.put(entry.outTradeNo(), entry);
    processing.remove(entry.outTradeNo());
    return entry;
  }

  synchronized int size() {
    return settled.size();
  }

  /** Settlements of one UTC day, in time order. */
  synchronized List<Entry> day(LocalDate day) {
    List<Entry> entries = new ArrayList<>();
    for (Entry entry : settled.values()) {
      if (LocalDate.ofInstant(entry.at(), ZoneOffset.UTC).equals(day)) {
        entries.add(entry);
      }
    }
    entries.sort(Comparator.comparing(Entry::at).thenComparing(Entry::outTradeNo));
    return entries;
  }

  @Override
  public synchronized void close() {
    try {
      file.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
