// The cache behind the item delegates that draw each cell's text from
// something made once per text: FastTextDelegate keeps a laid-out
// QStaticText per text, the nn-Meter tree's KernelTextDelegate that and
// images of it.
//
// It keeps what the last repaints drew, not every text ever drawn: two
// generations, and at the start of each repaint of the view a current
// generation holding more than `repaintsKept` repaints' texts plus kSlack
// becomes the previous one; a text drawn from the previous one moves back.
// So the number texts of every slider position are not kept for the session
// (issue 14's soak: a table kept up to 20,000 of them, about 500 bytes each).
// A user that starts no repaints (a delegate whose parent is not an item
// view) is bounded by `maxGeneration` texts per generation. A new font drops
// everything: every layout changes with it.
#pragma once

#include <QFont>
#include <QString>

#include <cstddef>
#include <unordered_map>
#include <utility>

namespace studio {

template <typename Value>
class TextGenerationCache
{
public:
    // New texts one repaint may add before the current generation is full.
    static constexpr std::size_t kSlack = 64;

    TextGenerationCache(std::size_t repaintsKept, std::size_t maxGeneration)
        : m_repaintsKept(repaintsKept)
        , m_maxGeneration(maxGeneration)
    {
    }

    // A repaint starts.
    void beginRepaint()
    {
        if (m_asked > 0)
            m_lastAsked = m_asked;
        m_asked = 0;
        // Full: what no repaint since the last rotation drew is dropped; the
        // texts of the last repaints are in the current generation (or, drawn
        // before the rotation, in the previous one, and move back when drawn).
        if (m_current.size() > m_repaintsKept * m_lastAsked + kSlack)
            rotate();
    }

    // The value kept for `text` in `font`, or make(text, font)'s, kept from now on.
    template <typename Make>
    Value &get(const QString &text, const QFont &font, Make &&make)
    {
        if (font != m_font) {
            m_current.clear();
            m_previous.clear();
            m_font = font;
        }
        ++m_asked;
        auto it = m_current.find(text);
        if (it != m_current.end())
            return it->second;
        if (auto node = m_previous.extract(text))
            return m_current.insert(std::move(node)).position->second;
        if (m_current.size() >= m_maxGeneration) // a user that never calls beginRepaint()
            rotate();
        return m_current.emplace(text, make(text, font)).first->second;
    }

    // Texts held, in both generations.
    std::size_t size() const { return m_current.size() + m_previous.size(); }

private:
    void rotate()
    {
        m_previous = std::move(m_current);
        m_current.clear();
    }

    using Map = std::unordered_map<QString, Value>;
    Map m_current;  // texts drawn since the last rotation
    Map m_previous; // texts drawn in the generation before
    std::size_t m_asked = 0;     // texts asked for in this repaint
    std::size_t m_lastAsked = 0; // ... and in the one before
    std::size_t m_repaintsKept;
    std::size_t m_maxGeneration;
    QFont m_font;
};

} // namespace studio
