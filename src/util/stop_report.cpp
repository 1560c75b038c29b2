#include "util/stop_report.hpp"

#include <unistd.h>

#include <csignal>
#include <cstring>

namespace g500::util::stop_report {
namespace {

// Only lock-free atomics and async-signal-safe calls (write, unlink, signal, raise) are used in
// the handler.
std::atomic<const char*> g_command{nullptr};
std::atomic<bool> g_prints{false};
std::atomic<const char*> g_phase{nullptr};
std::atomic<int64_t> g_done{0}, g_total{0};
std::atomic<const char*> g_note{nullptr};
std::atomic<const char*> g_temporaries[kMaxTemporaries];
std::atomic<bool> g_progress_line_open{false};

constexpr int kLineCapacity = 512;

// Appends to a fixed buffer, dropping what does not fit.
struct LineWriter {
  char* out;
  int capacity, size = 0;
  void text(const char* s) {
    for (; s && *s && size < capacity; ++s) out[size++] = *s;
  }
  void number(int64_t value) {
    char digits[24];
    int n = 0;
    uint64_t v = value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
    do digits[n++] = static_cast<char>('0' + v % 10);
    while ((v /= 10) != 0);
    if (value < 0) text("-");
    while (n > 0 && size < capacity) out[size++] = digits[--n];
  }
};

const char* name_of(int signal) {
  switch (signal) {
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "a signal";
  }
}

void on_stop(int signal) {
  if (g_prints.load()) {
    char line[kLineCapacity];
    int size = g_progress_line_open.load() ? 1 : 0;
    line[0] = '\n';
    size += format_stop_line(line + size, kLineCapacity - 1 - size, name_of(signal));
    line[size++] = '\n';
    for (int done = 0; done < size;) {
      const ssize_t n = ::write(STDERR_FILENO, line + done, static_cast<size_t>(size - done));
      if (n <= 0) break;
      done += static_cast<int>(n);
    }
  }
  for (auto& slot : g_temporaries)
    if (const char* path = slot.load()) ::unlink(path);
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

}  // namespace

void install(const char* command, bool prints) {
  g_command = command;
  g_prints = prints;
  for (int signal : {SIGTERM, SIGINT, SIGHUP}) {
    struct sigaction action {};
    action.sa_handler = on_stop;
    sigemptyset(&action.sa_mask);
    sigaction(signal, &action, nullptr);
  }
}

void finished() { g_prints = false; }

int format_stop_line(char* buffer, int capacity, const char* signal_name) {
  LineWriter w{buffer, capacity};
  w.text(g_command.load() ? g_command.load() : "g500");
  w.text(": stopped by ");
  w.text(signal_name);
  if (const char* phase = g_phase.load()) {
    w.text(" during ");
    w.text(phase);
    const int64_t total = g_total.load();
    const char* note = g_note.load();
    if (total > 0 || note) w.text(" (");
    if (total > 0) {
      w.number(g_done.load());
      w.text(" of ");
      w.number(total);
      w.text(" done");
    }
    if (total > 0 && note) w.text(", ");
    if (note) w.text(note);
    if (total > 0 || note) w.text(")");
  }
  return w.size;
}

StopPhase::StopPhase(const char* name, int64_t total)
    : saved_name_(g_phase.load()), saved_done_(g_done.load()), saved_total_(g_total.load()),
      saved_note_(g_note.load()) {
  g_phase = nullptr;  // never a new name with the old counts
  g_done = 0;
  g_total = total;
  g_note = nullptr;
  g_phase = name;
}

StopPhase::~StopPhase() {
  g_phase = nullptr;
  g_done = saved_done_;
  g_total = saved_total_;
  g_note = saved_note_;
  g_phase = saved_name_;
}

void StopPhase::set_total(int64_t total) { g_total = total; }

void StopPhase::update(int64_t done, const char* note) {
  g_done = done;
  g_note = note;
}

void set_progress_line_open(bool open) { g_progress_line_open = open; }

void remember_temporary(const char* path) {
  for (auto& slot : g_temporaries) {
    const char* empty = nullptr;
    if (slot.compare_exchange_strong(empty, path)) return;
  }
}

void forget_temporary(const char* path) {
  for (auto& slot : g_temporaries) {
    const char* expected = path;
    if (slot.compare_exchange_strong(expected, nullptr)) return;
  }
}

}  // namespace g500::util::stop_report
