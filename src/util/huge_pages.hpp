// Transparent huge pages for the arrays that searches read at random (edges, weights, row starts,
// distances). With 4 KiB pages nearly every random access into an array of tens of MiB also
// misses the TLB and pays a page walk; with 2 MiB pages the TLB covers gigabytes. Linux in its
// default THP mode ("madvise") only backs memory with huge pages when asked before the pages are
// first touched, hence: reserve (untouched), advise, then fill. Best effort: where THP is off or
// the call fails, nothing changes.
#pragma once
#include <cstddef>
#include <vector>

namespace g500::util {

// madvise(MADV_HUGEPAGE) on the whole 2 MiB pages inside [p, p + bytes).
void advise_huge_pages(void* p, size_t bytes);

// v.assign(n, value), with v's storage advised for huge pages before it is written when it has to
// be (re)allocated.
template <class T, class A>
void assign_huge(std::vector<T, A>& v, size_t n, const T& value) {
  if (v.capacity() < n) {
    std::vector<T, A> fresh;
    fresh.reserve(n);
    advise_huge_pages(fresh.data(), n * sizeof(T));
    v.swap(fresh);
  }
  v.assign(n, value);
}

// v resized to n elements on storage advised for huge pages, left unwritten (a LargeArray of
// util/large_array.hpp: the caller's threads write it, and take its page faults, in parallel).
template <class T, class A>
void resize_huge_unwritten(std::vector<T, A>& v, size_t n) {
  std::vector<T, A> fresh;
  fresh.reserve(n);
  advise_huge_pages(fresh.data(), n * sizeof(T));
  fresh.resize(n);
  v.swap(fresh);
}

}  // namespace g500::util
