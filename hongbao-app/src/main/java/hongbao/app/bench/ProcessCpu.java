package hongbao.app.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.function.ToLongFunction;

/**
 * CPU time of processes from {@code /proc/<pid>/stat} (Linux only), and the pid of whoever listens
 * on a local TCP port. CPU time per operation does not depend on what else runs on the box, which
 * is why the bench reports it rather than only rates.
 */
final class ProcessCpu {

  /** USER_HZ: the unit of the times in {@code /proc/<pid>/stat}; 100 on every Linux in use. */
  static final long TICKS_PER_SECOND = 100;

  static final long MICROS_PER_TICK = 1_000_000 / TICKS_PER_SECOND;

  private static final Path PROC = Path.of("/proc");

  private ProcessCpu() {}

  static boolean available() {
    return Files.isReadable(PROC.resolve("self").resolve("stat"));
  }

  /**
   * User + system time of one process in ticks (every thread, alive or exited); with {@code
   * children}, also what its reaped children used. 0 for a process that is gone.
   */
  static long ticks(long pid, boolean children) {
    String stat;
    try {
      stat = Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat"));
    } catch (IOException e) {
      return 0;
    }
    // The command name (field 2) is in parentheses and may hold spaces: count from the last ')'.
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    // fields[0] is field 3 (state); utime, stime, cutime, cstime are fields 14 to 17.
    long own = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    return children ? own + Long.parseLong(fields[13]) + Long.parseLong(fields[14]) : own;
  }

  /**
   * User + system time in ticks of the process's live JIT compiler threads (HotSpot names them
   * {@code C1 CompilerThreadN} and {@code C2 CompilerThreadN}, cut to 15 characters in {@code
   * comm}). A compiler thread that exited takes its time with it, so differences are clamped by the
   * caller; 0 for a process that is gone.
   */
  static long compilerTicks(long pid) {
    return sumOverThreads(
        pid,
        "stat",
        stat -> {
          int open = stat.indexOf('(');
          int close = stat.lastIndexOf(')');
          String name = stat.substring(open + 1, close);
          if (!name.startsWith("C1 CompilerThre") && !name.startsWith("C2 CompilerThre")) {
            return 0;
          }
          String[] fields = stat.substring(close + 2).trim().split(" ");
          return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        });
  }

  /**
   * Context switches, voluntary and forced, of the process's live threads (summed over each
   * thread's {@code status} under {@code /proc/<pid>/task}: the process's own status counts only
   * its main thread). A thread that exited takes its count with it, so differences are clamped by
   * the caller; 0 for a process that is gone.
   */
  static long contextSwitches(long pid) {
    return sumOverThreads(
        pid,
        "status",
        status ->
            status
                .lines()
                .filter(
                    line ->
                        line.startsWith("voluntary_ctxt_switches:")
                            || line.startsWith("nonvoluntary_ctxt_switches:"))
                .mapToLong(line -> Long.parseLong(line.substring(line.indexOf(':') + 1).trim()))
                .sum());
  }

  /**
   * The sum of {@code value} over the file {@code name} of each live thread of the process ({@code
   * /proc/<pid>/task/<tid>/<name>}); a thread that exits meanwhile is skipped, a process that is
   * gone gives 0.
   */
  private static long sumOverThreads(long pid, String name, ToLongFunction<String> value) {
    long sum = 0;
    try (DirectoryStream<Path> threads =
        Files.newDirectoryStream(PROC.resolve(Long.toString(pid)).resolve("task"))) {
      for (Path thread : threads) {
        String content;
        try {
          content = Files.readString(thread.resolve(name));
        } catch (IOException e) {
          continue; // the thread exited meanwhile
        }
        sum += value.applyAsLong(content);
      }
    } catch (IOException e) {
      return 0;
    }
    return sum;
  }

  /**
   * Busy time of the whole machine in ticks, every CPU summed (user, nice, system, irq, softirq,
   * steal from {@code /proc/stat}); 0 where unreadable.
   */
  static long machineTicks() {
    try (var lines = Files.lines(PROC.resolve("stat"))) {
      String cpu = lines.findFirst().orElse("");
      String[] f = cpu.trim().split("\\s+");
      long busy = 0;
      for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
        busy += Long.parseLong(f[i]);
      }
      return busy;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** The parent's pid, or -1 for a process that is gone. */
  static long parent(long pid) {
    try {
      String stat = Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat"));
      return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ")[1]);
    } catch (IOException e) {
      return -1;
    }
  }

  /** The short command name ({@code /proc/<pid>/comm}), or "" for a process that is gone. */
  static String command(long pid) {
    try {
      return Files.readString(PROC.resolve(Long.toString(pid)).resolve("comm")).trim();
    } catch (IOException e) {
      return "";
    }
  }

  /** Every live descendant of {@code root} whose command name is {@code command}. */
  static List<Long> descendantsNamed(long root, String command) {
    var pids = new ArrayList<Long>();
    ProcessHandle.of(root)
        .ifPresent(
            handle ->
                handle
                    .descendants()
                    .forEach(
                        child -> {
                          if (command.equals(command(child.pid()))) {
                            pids.add(child.pid());
                          }
                        }));
    return pids;
  }

  /**
   * The process that listens on this local TCP port (IPv4 or IPv6), found through the socket's
   * inode in {@code /proc/net/tcp*} and the file descriptors of every process we may read.
   */
  static OptionalLong listener(int port) {
    String inode = listeningInode(port);
    if (inode == null) {
      return OptionalLong.empty();
    }
    String link = "socket:[" + inode + "]";
    try (DirectoryStream<Path> processes = Files.newDirectoryStream(PROC, "[0-9]*")) {
      for (Path process : processes) {
        if (holds(process.resolve("fd"), link)) {
          return OptionalLong.of(Long.parseLong(process.getFileName().toString()));
        }
      }
    } catch (IOException e) {
      return OptionalLong.empty();
    }
    return OptionalLong.empty();
  }

  private static boolean holds(Path fdDirectory, String link) {
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(fdDirectory)) {
      for (Path fd : fds) {
        try {
          if (link.equals(Files.readSymbolicLink(fd).toString())) {
            return true;
          }
        } catch (IOException e) {
          // closed meanwhile: not this one
        }
      }
    } catch (IOException e) {
      // a process we may not read, or one that just exited
    }
    return false;
  }

  private static String listeningInode(int port) {
    String hexPort = String.format(Locale.ROOT, ":%04X", port);
    for (String table : List.of("tcp", "tcp6")) {
      List<String> lines;
      try {
        lines = Files.readAllLines(PROC.resolve("net").resolve(table));
      } catch (IOException e) {
        continue;
      }
      for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
        String[] f = line.trim().split("\\s+");
        // local_address is field 1, st field 3 (0A = LISTEN), inode field 9
        if (f.length > 9 && f[1].endsWith(hexPort) && "0A".equals(f[3])) {
          return f[9];
        }
      }
    }
    return null;
  }
}
