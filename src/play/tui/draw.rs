//! Drawing the full screen: [`draw()`] only reads the [`App`], so a test renders it on
//! ratatui's `TestBackend` ([`render_text`]).

use super::*;

/// Draw the whole screen.
pub fn draw(f: &mut Frame, app: &App) {
    let area = f.area();
    if area.width < 64 || area.height < 22 {
        f.render_widget(
            Paragraph::new(format!(
                "z80chess play needs at least 64 x 22 characters (this is {} x {}).\nEsc: quit",
                area.width, area.height
            ))
            .wrap(ratatui::widgets::Wrap { trim: true }),
            area,
        );
        return;
    }
    let [title, main, message, input, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(10),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let [left, right] =
        Layout::horizontal([Constraint::Length(30), Constraint::Min(30)]).areas(main);
    let [board, clocks] =
        Layout::vertical([Constraint::Length(12), Constraint::Min(4)]).areas(left);
    let [moves, engine] =
        Layout::vertical([Constraint::Min(4), Constraint::Length(7)]).areas(right);

    let result = app
        .game
        .end()
        .map(|e| format!(" · {} {}", e.result(), e.describe()))
        .unwrap_or_default();
    f.render_widget(
        Paragraph::new(format!(
            " z80chess · {} build · level {} · {} · you play {}{result}",
            app.game.build(),
            app.game.level,
            app.pace.describe(),
            side_name(app.human)
        ))
        .style(Style::new().add_modifier(Modifier::REVERSED)),
        title,
    );
    draw_board(f, app, board);
    draw_clocks(f, app, clocks);
    draw_moves(f, app, moves);
    draw_engine(f, app, engine);

    let (msg, bad) = &app.message;
    let style = if *bad {
        Style::new().fg(Tc::Red).add_modifier(Modifier::BOLD)
    } else {
        Style::new()
    };
    f.render_widget(Paragraph::new(format!(" {msg}")).style(style), message);
    let prompt = if app.search.is_some() {
        " Z80 thinking (Space: move now) > ".to_string()
    } else if app.game.end().is_some() {
        " Game over > ".to_string()
    } else if app.game.pos().turn() == app.human {
        format!(" Your move ({}) > ", side_name(app.human))
    } else {
        " > ".to_string()
    };
    f.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(prompt.clone(), Style::new().add_modifier(Modifier::BOLD)),
            Span::raw(app.input.clone()),
        ])),
        input,
    );
    let cx = input.x + (prompt.chars().count() + app.input.chars().count()) as u16;
    if cx < input.x + input.width {
        f.set_cursor_position((cx, input.y));
    }
    f.render_widget(
        Paragraph::new(" F1 help  F2 new  F3 flip  F4 undo  F5 move now  F6 switch  Esc quit")
            .style(Style::new().fg(Tc::DarkGray)),
        keys,
    );
}

fn glyph(role: Role, white: bool, ascii: bool) -> char {
    if ascii {
        let c = role.char();
        return if white { c.to_ascii_uppercase() } else { c };
    }
    match (role, white) {
        (Role::King, true) => '♔',
        (Role::Queen, true) => '♕',
        (Role::Rook, true) => '♖',
        (Role::Bishop, true) => '♗',
        (Role::Knight, true) => '♘',
        (Role::Pawn, true) => '♙',
        (Role::King, false) => '♚',
        (Role::Queen, false) => '♛',
        (Role::Rook, false) => '♜',
        (Role::Bishop, false) => '♝',
        (Role::Knight, false) => '♞',
        (Role::Pawn, false) => '♟',
    }
}

/// The squares of the last move (from, to; castling: the king's).
fn last_move_squares(app: &App) -> Vec<Square> {
    let Some(p) = app.game.plies.last() else {
        return Vec::new();
    };
    let uci = p.fw.uci();
    [&uci[0..2], &uci[2..4]]
        .iter()
        .filter_map(|s| s.parse().ok())
        .collect()
}

fn draw_board(f: &mut Frame, app: &App, area: Rect) {
    let pos = app.game.pos();
    let last = last_move_squares(app);
    let check = if pos.is_check() {
        pos.board().king_of(pos.turn())
    } else {
        None
    };
    let files: Vec<u32> = if app.flipped {
        (0..8).rev().collect()
    } else {
        (0..8).collect()
    };
    let ranks: Vec<u32> = if app.flipped {
        (0..8).collect()
    } else {
        (0..8).rev().collect()
    };
    let mut lines = Vec::new();
    for &r in &ranks {
        let mut spans = vec![Span::raw(format!(" {} ", r + 1))];
        for &fl in &files {
            let sq = Square::from_coords(File::new(fl), Rank::new(r));
            let light = (fl + r) % 2 == 1;
            let bg = if Some(sq) == check {
                Tc::Rgb(220, 60, 60)
            } else if last.contains(&sq) {
                if light {
                    Tc::Rgb(206, 210, 107)
                } else {
                    Tc::Rgb(170, 162, 58)
                }
            } else if light {
                Tc::Rgb(240, 217, 181)
            } else {
                Tc::Rgb(181, 136, 99)
            };
            let (text, fg) = match pos.board().piece_at(sq) {
                Some(p) => {
                    let white = p.color == Color::White;
                    let fg = if app.ascii && white {
                        Tc::White
                    } else {
                        Tc::Black
                    };
                    (format!(" {} ", glyph(p.role, white, app.ascii)), fg)
                }
                None => ("   ".to_string(), Tc::Black),
            };
            spans.push(Span::styled(
                text,
                Style::new().bg(bg).fg(fg).add_modifier(Modifier::BOLD),
            ));
        }
        lines.push(Line::from(spans));
    }
    let letters: String = files
        .iter()
        .map(|&fl| format!(" {} ", (b'a' + fl as u8) as char))
        .collect();
    lines.push(Line::from(format!("   {letters}")));
    let status = match app.game.end() {
        Some(e) => e.describe(),
        None if pos.is_check() => format!("{} to move: check!", side_name(pos.turn())),
        None => format!("{} to move", side_name(pos.turn())),
    };
    lines.push(Line::from(format!(" {status}")));
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" Board ")),
        area,
    );
}

fn draw_clocks(f: &mut Frame, app: &App, area: Rect) {
    let mut lines = vec![Line::from("         wall      Z80 time")];
    for c in [Color::White, Color::Black] {
        let who = if c == app.human { "you" } else { "Z80" };
        let z80 = if c == app.engine_colour() {
            let running = app
                .search
                .as_ref()
                .map(|s| {
                    app.pace
                        .emulated(s.search.tstates.saturating_sub(app.pondered))
                })
                .unwrap_or_default();
            clock(app.z80_time + running)
        } else {
            String::new()
        };
        let mark = if app.game.pos().turn() == c && app.game.end().is_none() {
            "▸"
        } else {
            " "
        };
        lines.push(Line::from(format!(
            "{mark}{:<6} {:>8}  {:>8}  {who}",
            side_name(c),
            clock(app.wall(c)),
            z80
        )));
    }
    // At period speed or as fast as the host runs ("turbo (2 MHz clock)"), as the pace is.
    lines.push(Line::from(format!(" Z80: {}", app.pace.describe())));
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" Clocks ")),
        area,
    );
}

fn draw_moves(f: &mut Frame, app: &App, area: Rect) {
    let inner_h = area.height.saturating_sub(2) as usize;
    if app.help {
        let lines: Vec<Line> = HELP.iter().map(|l| Line::from(format!(" {l}"))).collect();
        f.render_widget(
            Paragraph::new(lines).block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(" Help (F1 or 'help' to close) "),
            ),
            area,
        );
        return;
    }
    // Rows of "n. white black".
    let mut rows: Vec<String> = Vec::new();
    for (i, ply) in app.game.plies.iter().enumerate() {
        let before = app.game.pos_before(i);
        let n = before.fullmoves().get();
        match before.turn() {
            Color::White => rows.push(format!("{n:>4}. {:<9}", ply.san)),
            Color::Black => {
                if i == 0 {
                    rows.push(format!("{n:>4}. {:<9}", "..."));
                }
                let last = rows.last_mut().expect("a row");
                last.push_str(&format!("{:<9}", ply.san));
            }
        }
    }
    let skip = rows.len().saturating_sub(inner_h);
    let lines: Vec<Line> = rows[skip..].iter().map(|r| Line::from(r.clone())).collect();
    let title = if app.game.from_initial() {
        " Moves ".to_string()
    } else {
        " Moves (from a set-up position) ".to_string()
    };
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(title)),
        area,
    );
}

fn thought_lines(t: &Thought, san: &str, prefix: &str, pace: &Pace) -> Vec<String> {
    let secs = pace.emulated(t.tstates).as_secs_f64();
    let what = match t.kind {
        SearchKind::Book => "from the book".to_string(),
        SearchKind::Stopped => format!("moved now at depth {}, score {}", t.depth, t.score_text()),
        SearchKind::Overflow => format!(
            "depth {} (a list overflowed), score {}",
            t.depth,
            t.score_text()
        ),
        SearchKind::Searched => format!("depth {}, score {}", t.depth, t.score_text()),
    };
    vec![
        format!("Last: {prefix} {san}, {what}"),
        format!(
            "evaluations {}, moves made {}",
            group(t.evaluations as u64),
            group(t.nodes as u64)
        ),
        format!(
            "T-states {} = {secs:.1} s at {}",
            group(t.tstates),
            pace.clock_text()
        ),
    ]
}

/// The root move the Z80 searches now, its place among the root's moves, and the time the
/// depth still needs at the pace of its moves done so far (a rough guide: a refutation makes
/// a move quicker, a new best slower), in the Z80's emulated time; on the first move of a
/// pass there is nothing to time yet.
fn root_move_line(app: &App, tstates: u64) -> Option<String> {
    let p = app.game.engine.progress();
    let r = p.root?;
    let pos = app.game.pos();
    let m = r.mv.to_move(pos)?;
    let san = shakmaty::san::San::from_move(pos, m).to_string();
    let head = format!("move {}/{} {san}", r.number, r.count);
    let done = u64::from(r.number.saturating_sub(1));
    Some(match app.pass_start {
        Some((pass, t0)) if pass == p.pass && done > 0 => {
            let left = tstates.saturating_sub(t0) * u64::from(r.count).saturating_sub(done) / done;
            let secs = app.pace.emulated(left).as_secs_f64();
            format!("{head}: depth {} ends in ~{secs:.0} s", p.depth)
        }
        _ => format!("{head} at depth {} (timing it)", p.depth),
    })
}

fn draw_engine(f: &mut Frame, app: &App, area: Rect) {
    let mut lines: Vec<String> = Vec::new();
    if let Some(s) = app.search.as_ref().map(|d| &d.search) {
        let pos = app.game.pos();
        lines.push(format!(
            "Thinking at level {}{}",
            s.level,
            if s.stopping { ": moving now" } else { "" }
        ));
        match s.depths.last() {
            Some(d) => {
                let san = d
                    .best
                    .to_move(pos)
                    .map(|m| shakmaty::san::San::from_move(pos, m).to_string())
                    .unwrap_or_else(|| d.best.uci());
                lines.push(format!(
                    "depth {} done: best {san}, score {}",
                    d.depth,
                    crate::session::describe_score(d.score, &s.depths)
                ));
            }
            None => lines.push("depth 1 not done yet".into()),
        }
        if let Some(l) = root_move_line(app, s.tstates) {
            lines.push(l);
        }
        lines.push(format!(
            "evaluations {}, moves made {}",
            group(s.evaluations as u64),
            group(s.nodes as u64)
        ));
        let wall = app.now.saturating_duration_since(s.wall_start);
        lines.push(format!(
            "T-states {}: {:.1} s emulated, {:.1} s wall",
            group(s.tstates),
            s.emulated(&app.pace).as_secs_f64(),
            wall.as_secs_f64()
        ));
    } else if let Some(p) = &app.pondering {
        lines.push(format!("Pondering on your {}", p.san));
        match (&p.result, p.search.depths.last()) {
            (Some(_), _) => lines.push("its answer is ready".into()),
            (None, Some(d)) => lines.push(format!("depth {} done", d.depth)),
            (None, None) => lines.push("depth 1 not done yet".into()),
        }
        lines.push(format!(
            "T-states {}: {:.1} s emulated",
            group(p.search.tstates),
            p.search.emulated(&app.pace).as_secs_f64()
        ));
    } else if let Some((i, ply)) = app
        .game
        .plies
        .iter()
        .enumerate()
        .rev()
        .find(|(_, p)| p.thought.is_some())
    {
        let t = ply.thought.as_ref().expect("found");
        let prefix = move_prefix(app.game.pos_before(i));
        lines = thought_lines(t, &ply.san, &prefix, &app.pace);
    } else {
        lines.push(format!(
            "The Z80 plays {} at level {}.",
            side_name(app.engine_colour()),
            app.game.level
        ));
    }
    let lines: Vec<Line> = lines
        .into_iter()
        .map(|l| Line::from(format!(" {l}")))
        .collect();
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" Z80 ")),
        area,
    );
}

/// The screen as text, one line per row, trailing spaces removed (for tests).
pub fn render_text(app: &App, width: u16, height: u16) -> String {
    let Ok(mut term) = Terminal::new(TestBackend::new(width, height));
    if term.draw(|f| draw(f, app)).is_err() {
        return String::new();
    }
    let buf = term.backend().buffer();
    let mut out = String::new();
    for y in 0..height {
        let mut line = String::new();
        for x in 0..width {
            line.push_str(buf.cell((x, y)).map(|c| c.symbol()).unwrap_or(" "));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The background colour of a board square on the rendered screen (for tests).
pub fn square_background(app: &App, width: u16, height: u16, sq: Square) -> Option<Tc> {
    let mut term = Terminal::new(TestBackend::new(width, height)).ok()?;
    term.draw(|f| draw(f, app)).ok()?;
    let buf = term.backend().buffer();
    let (fl, r) = (u32::from(sq.file()) as u16, u32::from(sq.rank()) as u16);
    let col = if app.flipped { 7 - fl } else { fl };
    let row = if app.flipped { r } else { 7 - r };
    // The board block starts at (0, 1); inside its border, 3 columns of rank label.
    let x = 1 + 3 + col * 3 + 1;
    let y = 1 + 1 + row;
    buf.cell((x, y)).map(|c| c.bg)
}
